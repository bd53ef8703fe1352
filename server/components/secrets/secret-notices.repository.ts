/**
 * When a client secret's `secret.expiring` (7 days and 1 day before) and `secret.expired` events are due: notices
 * kept in 10-minute buckets keyed by their start, so the dispatcher reads the buckets that ended since it last
 * looked by `_id` alone (on FerretDB nothing scans a collection that grows with registrations), then records how
 * far it got. A notice whose secret was rotated since is dropped when it comes due (secret-notices.ts). The
 * interface both stores pass the contract suite against, and the embedded implementation.
 */
import { copyPlain } from '../../../lib/copy-plain.js';

export interface SecretNotice {
  organizationId: string;
  registrationId: string;
  type: 'secret.expiring' | 'secret.expired';
  at: Date;
  /** The expiry the notice is about: a secret with another one now was rotated, and the notice is stale. */
  expiresAt: Date;
}

export const NOTICE_BUCKET_MS = 10 * 60 * 1000;

export const bucketOf = (at: Date): number => Math.floor(at.getTime() / NOTICE_BUCKET_MS) * NOTICE_BUCKET_MS;

export interface SecretNoticeRepository {
  /** Adds notices to their buckets. */
  schedule(notices: readonly SecretNotice[]): Promise<void>;
  /**
   * The notices of at most `maxBuckets` buckets that ended by `now` and were not taken yet, and the bucket start
   * to pass to `taken` once they are handled; null when there are none (the first call starts at `now`'s bucket).
   */
  due(now: Date, maxBuckets: number): Promise<{ notices: SecretNotice[]; next: number } | null>;
  /** Records that the buckets before `next` are handled, and forgets them. */
  taken(next: number): Promise<void>;
}

export function createMemorySecretNoticeRepository(): SecretNoticeRepository {
  const buckets = new Map<number, SecretNotice[]>();
  let cursor: number | undefined;
  return {
    async schedule(notices) {
      for (const notice of notices) {
        const bucket = bucketOf(notice.at);
        buckets.set(bucket, [...(buckets.get(bucket) ?? []), copyPlain(notice)]);
      }
    },
    async due(now, maxBuckets) {
      cursor ??= bucketOf(now);
      let next = cursor;
      const notices: SecretNotice[] = [];
      for (let n = 0; n < maxBuckets && next + NOTICE_BUCKET_MS <= now.getTime(); n += 1) {
        notices.push(...(buckets.get(next) ?? []).map(copyPlain));
        next += NOTICE_BUCKET_MS;
      }
      return next === cursor ? null : { notices, next };
    },
    async taken(next) {
      for (const bucket of buckets.keys()) if (bucket < next) buckets.delete(bucket);
      cursor = Math.max(cursor ?? next, next);
    },
  };
}
