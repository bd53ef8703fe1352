/**
 * Idempotency-Key records on MongoDB, shared by every instance (docs/architecture.md §R.10): insert to claim; on E11000 take over
 * an expired record, an expired lease (a crashed instance's key) or a claim whose holder this instance knows is over,
 * with one conditional update; otherwise answer mismatch / in flight / completed from the record. The takeover runs under the key's write lock so two instances
 * cannot both take over on FerretDB, whose filtered updates are not atomic (see server/db/write-locks.ts).
 * A request's path is inserts only (claim, then its response under the claim's id: idempotency-responses.schema.ts),
 * batched with other requests' (write-batcher.ts); updates and reads by anything but `_id`, which scan a whole
 * collection on FerretDB 1.24, are left to retries, takeovers and failed requests.
 */
import mongoose, { type Connection } from 'mongoose';
import { batchedInserts, collectionOf } from '../../db/batched-writes.mongo.js';
import { isDuplicateKey } from '../../db/duplicate-key.js';
import { queryTimeoutMs } from '../../db/query-limits.js';
import type { WriteLocks } from '../../db/write-locks.js';
import { newId } from '../../ids.js';
import {
  claimLapsed,
  type BeginOutcome,
  type IdempotencyRepository,
  type IdempotencyScope,
  type StoredResponse,
} from './idempotency.repository.js';
import { idempotencyResponseModel, type IdempotencyResponseDocument } from './idempotency-responses.schema.js';
import { idempotencyModel, type IdempotencyDocument } from './idempotency.schema.js';

/** Every this many claims, expired records are deleted (the TTL monitor's job where the server has one). */
const SWEEP_EVERY = 500;
const CLAIM_ATTEMPTS = 3;

const scopeFilter = (s: IdempotencyScope) => ({ organizationId: s.organizationId, subject: s.subject, key: s.key });

/** What `begin` hands a request that claimed a key (its ClaimHandle), for its response and its release. */
interface MongoClaim {
  id: string;
  expiresAt: Date;
}

export function createMongoIdempotencyRepository(connection: Connection, locks: WriteLocks): IdempotencyRepository {
  const maxTimeMS = queryTimeoutMs(connection);
  const Records = idempotencyModel(connection);
  const Responses = idempotencyResponseModel(connection);
  const claimInserts = batchedInserts(collectionOf(Records), { maxTimeMS });
  const responseInserts = batchedInserts(collectionOf(Responses), { maxTimeMS });
  let claims = 0;

  function sweep(now: Date): void {
    // Best effort and off the request path: a failed sweep only delays the cleanup.
    const expired = { expiresAt: mongoose.trusted({ $lte: now }) };
    Records.deleteMany(expired, { maxTimeMS }).catch(() => undefined);
    Responses.deleteMany(expired, { maxTimeMS }).catch(() => undefined);
  }

  /** The key's record with its response, wherever it is stored (its own collection, or on an older claim). */
  async function readClaim(input: IdempotencyScope): Promise<IdempotencyDocument | null> {
    const existing = await Records.findOne(scopeFilter(input)).lean<IdempotencyDocument>().maxTimeMS(maxTimeMS);
    if (!existing || existing.response != null || !existing.claimId) return existing;
    const stored = await Responses.findOne({ _id: existing.claimId })
      .lean<IdempotencyResponseDocument>()
      .maxTimeMS(maxTimeMS);
    return stored ? { ...existing, response: stored.response as unknown } : existing;
  }

  return {
    async begin(input) {
      const now = input.now;
      claims += 1;
      if (claims % SWEEP_EVERY === 0) sweep(now);
      const claim: MongoClaim = { id: newId('clm'), expiresAt: new Date(now.getTime() + input.ttlMs) };
      const started = { outcome: 'started', claim } satisfies BeginOutcome;
      const fields = {
        fingerprint: input.fingerprint,
        leaseUntil: new Date(now.getTime() + input.leaseMs),
        expiresAt: claim.expiresAt,
        claimId: claim.id,
        ...(input.holder !== undefined && { holder: input.holder }),
      };
      const takeOver = { $set: fields, $unset: { response: '', ...(input.holder === undefined && { holder: '' }) } };
      for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt += 1) {
        try {
          await claimInserts.write({ _id: new mongoose.Types.ObjectId(), ...scopeFilter(input), ...fields });
          return started;
        } catch (error) {
          if (!isDuplicateKey(error)) throw error;
        }
        // The key exists. Expired, or the same request's claim lapsed (lease over, or its holder is known to be
        // over): it counts as absent, take it over — conditionally, and a claim completed meanwhile keeps its answer.
        const answer = await locks.withLock(
          `idempotency:${JSON.stringify([input.organizationId, input.subject, input.key])}`,
          async () => {
            const existing = await readClaim(input);
            if (!existing) return null;
            const finished = existing.response !== undefined && existing.response !== null;
            const expired = existing.expiresAt.getTime() <= now.getTime();
            const held = { ...existing, leaseUntil: existing.leaseUntil.getTime(), finished };
            if (!expired && !claimLapsed(held, input)) return existing;
            // Taken over only as read: the same claim (its id unchanged), not completed then.
            const condition = expired
              ? { expiresAt: mongoose.trusted({ $lte: now }) }
              : {
                  response: mongoose.trusted({ $exists: false }),
                  fingerprint: input.fingerprint,
                  claimId: existing.claimId ?? mongoose.trusted({ $exists: false }),
                };
            const { matchedCount } = await Records.updateOne({ ...scopeFilter(input), ...condition }, takeOver, {
              maxTimeMS,
            });
            if (matchedCount !== 1) return readClaim(input);
            // The holder may have completed between the read and the takeover (`complete` inserts without the
            // lock): its answer stands, now under the new claim id so the key reads as completed from here on.
            const completed =
              !expired && existing.claimId
                ? await Responses.findOne({ _id: existing.claimId })
                    .lean<IdempotencyResponseDocument>()
                    .maxTimeMS(maxTimeMS)
                : null;
            if (!completed) return started;
            await responseInserts.write({
              _id: claim.id,
              response: completed.response as StoredResponse,
              expiresAt: claim.expiresAt,
            });
            return { outcome: 'completed', response: completed.response as StoredResponse } satisfies BeginOutcome;
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
      const claim = input.claim as MongoClaim;
      try {
        await responseInserts.write({ _id: claim.id, response: input.response, expiresAt: claim.expiresAt });
      } catch (error) {
        // Completed before (the same claim's response): the first one stands.
        if (!isDuplicateKey(error)) throw error;
      }
    },

    async release(input) {
      // Only the caller's own claim, never a completed one (its response is in the other collection), nor one taken
      // over (it has a new id).
      const claim = input.claim as MongoClaim;
      if (await Responses.exists({ _id: claim.id }).maxTimeMS(maxTimeMS)) return;
      await Records.deleteOne({ ...scopeFilter(input), claimId: claim.id }, { maxTimeMS });
    },
  };
}
