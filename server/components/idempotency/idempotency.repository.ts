/**
 * Idempotency-Key records (draft-ietf-httpapi-idempotency-key-header-07): scoped to organization + subject + key,
 * holding a request fingerprint, an in-flight lease and, once done, the response to replay until they expire.
 */
import { copyPlain } from '../../../lib/copy-plain.js';

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export interface IdempotencyScope {
  organizationId: string;
  subject: string;
  key: string;
}

/** What a store gives a request that claimed a key, and takes back when it completes (opaque to the caller). */
export type ClaimHandle = unknown;

export type BeginOutcome =
  | { outcome: 'started'; claim: ClaimHandle }
  | { outcome: 'in_flight' }
  | { outcome: 'mismatch' }
  | { outcome: 'completed'; response: StoredResponse };

export interface BeginInput extends IdempotencyScope {
  fingerprint: string;
  now: Date;
  leaseMs: number;
  ttlMs: number;
  /** Who claims: stored with the claim, so the instance that made it can tell later that it is over. */
  holder?: string;
  /** Whether the request that holds a claim is known to be over (it ended without completing). */
  abandoned?: (holder: string) => boolean;
}

/** Same request, unfinished, and its lease lapsed or its holder over: the claim may be taken over. */
export function claimLapsed(
  claim: { fingerprint: string; leaseUntil: number; holder?: string | null; finished: boolean },
  input: BeginInput,
): boolean {
  if (claim.finished || claim.fingerprint !== input.fingerprint) return false;
  if (claim.leaseUntil <= input.now.getTime()) return true;
  return typeof claim.holder === 'string' && input.abandoned?.(claim.holder) === true;
}

export interface IdempotencyRepository {
  /**
   * Claims the key atomically. A live record with another fingerprint → `mismatch` (even when its lease lapsed:
   * the first request may have created something); same fingerprint and unfinished with a live lease →
   * `in_flight`; finished → `completed` with the response. An expired record counts as absent, and the same
   * request takes over an unfinished one whose lease lapsed — or whose holder `abandoned` says is over (this
   * instance answered it with a 5xx: nothing runs under that claim any more).
   */
  begin(input: BeginInput): Promise<BeginOutcome>;
  /** Stores the response of a claimed key (kept until the record's expiry); `claim` is what `begin` gave. */
  complete(input: IdempotencyScope & { response: StoredResponse; claim: ClaimHandle }): Promise<void>;
  /**
   * Drops a claimed key so the request may be retried (the request failed before creating anything); `claim` is
   * what `begin` gave, so a request whose claim was taken over meanwhile drops nothing.
   */
  release(input: IdempotencyScope & { claim: ClaimHandle }): Promise<void>;
}

interface MemoryRecord {
  /** This claim's handle, new with every takeover (what `begin` gave its holder). */
  claim: number;
  fingerprint: string;
  holder?: string;
  leaseExpiresAt: number;
  expiresAt: number;
  response?: StoredResponse;
}

const SWEEP_EVERY = 1000;

export function createMemoryIdempotencyRepository(): IdempotencyRepository {
  const records = new Map<string, MemoryRecord>();
  let begins = 0;
  let claims = 0;
  const keyOf = (s: IdempotencyScope) => JSON.stringify([s.organizationId, s.subject, s.key]);

  function sweep(now: number): void {
    for (const [key, record] of records) if (record.expiresAt <= now) records.delete(key);
  }

  return {
    async begin(input) {
      const now = input.now.getTime();
      begins += 1;
      if (begins % SWEEP_EVERY === 0) sweep(now);
      const key = keyOf(input);
      const existing = records.get(key);
      if (existing && existing.expiresAt > now) {
        if (existing.fingerprint !== input.fingerprint) return { outcome: 'mismatch' };
        if (existing.response) return { outcome: 'completed', response: copyPlain(existing.response) };
        const claim = { ...existing, leaseUntil: existing.leaseExpiresAt, finished: false };
        if (!claimLapsed(claim, input)) return { outcome: 'in_flight' };
        // The claim lapsed (crash or unknown outcome): the same request takes it over.
      }
      claims += 1;
      records.set(key, {
        claim: claims,
        fingerprint: input.fingerprint,
        ...(input.holder !== undefined && { holder: input.holder }),
        leaseExpiresAt: now + input.leaseMs,
        expiresAt: now + input.ttlMs,
      });
      return { outcome: 'started', claim: claims };
    },
    async complete(input) {
      const record = records.get(keyOf(input));
      // Only the current holder's answer (one whose claim was taken over is not the retry's).
      if (record && input.claim === record.claim && record.response === undefined)
        record.response = copyPlain(input.response);
    },
    async release(input) {
      const key = keyOf(input);
      const record = records.get(key);
      if (record && record.response === undefined && input.claim === record.claim) records.delete(key);
    },
  };
}
