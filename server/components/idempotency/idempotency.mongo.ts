/**
 * Idempotency-Key records on MongoDB, shared by every instance (research §6): insert to claim; on E11000 take over
 * an expired record, an expired lease (a crashed instance's key) or a claim whose holder this instance knows is over,
 * with one conditional update; otherwise answer mismatch / in flight / completed from the record. The takeover runs under the key's write lock so two instances
 * cannot both take over on FerretDB, whose filtered updates are not atomic (see server/db/write-locks.ts).
 */
import mongoose, { type Connection } from 'mongoose';
import { isDuplicateKey } from '../../db/duplicate-key.js';
import { MAX_TIME_MS } from '../../db/query-limits.js';
import type { WriteLocks } from '../../db/write-locks.js';
import {
  claimLapsed,
  type BeginOutcome,
  type IdempotencyRepository,
  type IdempotencyScope,
  type StoredResponse,
} from './idempotency.repository.js';
import { idempotencyModel, type IdempotencyDocument } from './idempotency.schema.js';

/** Every this many claims, expired records are deleted (the TTL monitor's job where the server has one). */
const SWEEP_EVERY = 500;
const CLAIM_ATTEMPTS = 3;

const scopeFilter = (s: IdempotencyScope) => ({ organizationId: s.organizationId, subject: s.subject, key: s.key });

export function createMongoIdempotencyRepository(connection: Connection, locks: WriteLocks): IdempotencyRepository {
  const Records = idempotencyModel(connection);
  let claims = 0;

  function sweep(now: Date): void {
    // Best effort and off the request path: a failed sweep only delays the cleanup.
    Records.deleteMany({ expiresAt: mongoose.trusted({ $lte: now }) }, { maxTimeMS: MAX_TIME_MS }).catch(
      () => undefined,
    );
  }

  return {
    async begin(input) {
      const now = input.now;
      claims += 1;
      if (claims % SWEEP_EVERY === 0) sweep(now);
      const fields = {
        fingerprint: input.fingerprint,
        leaseUntil: new Date(now.getTime() + input.leaseMs),
        expiresAt: new Date(now.getTime() + input.ttlMs),
        ...(input.holder !== undefined && { holder: input.holder }),
      };
      const takeOver = { $set: fields, $unset: { response: '', ...(input.holder === undefined && { holder: '' }) } };
      for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt += 1) {
        try {
          await Records.create([{ ...scopeFilter(input), ...fields }]);
          return { outcome: 'started' };
        } catch (error) {
          if (!isDuplicateKey(error)) throw error;
        }
        // The key exists. Expired, or the same request's claim lapsed (lease over, or its holder is known to be
        // over): it counts as absent, take it over — conditionally, so a claim completed meanwhile is never undone.
        const answer = await locks.withLock(
          `idempotency:${JSON.stringify([input.organizationId, input.subject, input.key])}`,
          async () => {
            const existing = await Records.findOne(scopeFilter(input))
              .lean<IdempotencyDocument>()
              .maxTimeMS(MAX_TIME_MS);
            if (!existing) return null;
            const finished = existing.response !== undefined && existing.response !== null;
            const expired = existing.expiresAt.getTime() <= now.getTime();
            const claim = { ...existing, leaseUntil: existing.leaseUntil.getTime(), finished };
            if (!expired && !claimLapsed(claim, input)) return existing;
            const condition = expired
              ? { expiresAt: mongoose.trusted({ $lte: now }) }
              : { response: mongoose.trusted({ $exists: false }), fingerprint: input.fingerprint };
            const { matchedCount } = await Records.updateOne({ ...scopeFilter(input), ...condition }, takeOver, {
              maxTimeMS: MAX_TIME_MS,
            });
            if (matchedCount === 1) return { outcome: 'started' } satisfies BeginOutcome;
            return Records.findOne(scopeFilter(input)).lean<IdempotencyDocument>().maxTimeMS(MAX_TIME_MS);
          },
        );
        // Gone (released or swept) since our insert failed: claim again.
        if (answer === null) continue;
        if ('outcome' in answer) return answer;
        if (answer.fingerprint !== input.fingerprint) return { outcome: 'mismatch' };
        if (answer.response !== undefined && answer.response !== null) {
          return { outcome: 'completed', response: answer.response as StoredResponse };
        }
        return { outcome: 'in_flight' };
      }
      // The key changed hands on every attempt: someone else is working on it right now.
      return { outcome: 'in_flight' };
    },

    async complete(input) {
      await Records.updateOne(
        { ...scopeFilter(input), response: mongoose.trusted({ $exists: false }) },
        { $set: { response: input.response } },
        { maxTimeMS: MAX_TIME_MS },
      );
    },

    async release(input) {
      await Records.deleteOne(
        { ...scopeFilter(input), response: mongoose.trusted({ $exists: false }) },
        { maxTimeMS: MAX_TIME_MS },
      );
    },
  };
}
