/**
 * Idempotency-Key records (draft-ietf-httpapi-idempotency-key-header-07): scoped to organization + subject + key,
 * holding a request fingerprint, an in-flight lease and, once done, the response to replay until they expire.
 */

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

export type BeginOutcome =
  | { outcome: 'started' }
  | { outcome: 'in_flight' }
  | { outcome: 'mismatch' }
  | { outcome: 'completed'; response: StoredResponse };

export interface IdempotencyRepository {
  /**
   * Claims the key atomically. A live record with another fingerprint → `mismatch` (even when its lease lapsed:
   * the first request may have created something); same fingerprint and unfinished with a live lease →
   * `in_flight`; finished → `completed` with the response. An expired record counts as absent, and the same
   * request takes over an unfinished one whose lease lapsed.
   */
  begin(
    input: IdempotencyScope & { fingerprint: string; now: Date; leaseMs: number; ttlMs: number },
  ): Promise<BeginOutcome>;
  /** Stores the response of a claimed key (kept until the record's expiry). */
  complete(input: IdempotencyScope & { response: StoredResponse }): Promise<void>;
  /** Drops a claimed key so the request may be retried (the request failed before creating anything). */
  release(input: IdempotencyScope): Promise<void>;
}

interface MemoryRecord {
  fingerprint: string;
  leaseExpiresAt: number;
  expiresAt: number;
  response?: StoredResponse;
}

const SWEEP_EVERY = 1000;

export function createMemoryIdempotencyRepository(): IdempotencyRepository {
  const records = new Map<string, MemoryRecord>();
  let begins = 0;
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
        if (existing.response) return { outcome: 'completed', response: structuredClone(existing.response) };
        if (existing.leaseExpiresAt > now) return { outcome: 'in_flight' };
        // The claim lapsed (crash or unknown outcome): the same request takes it over.
      }
      records.set(key, {
        fingerprint: input.fingerprint,
        leaseExpiresAt: now + input.leaseMs,
        expiresAt: now + input.ttlMs,
      });
      return { outcome: 'started' };
    },
    async complete(input) {
      const record = records.get(keyOf(input));
      if (record) record.response = structuredClone(input.response);
    },
    async release(input) {
      const key = keyOf(input);
      if (records.get(key)?.response === undefined) records.delete(key);
    },
  };
}
