/**
 * Short per-record locks shared by every instance, built on the one write FerretDB 1.24 makes atomic: an insert
 * checked by a unique index (here `_id`).
 *
 * Why: on MongoDB one conditional findOneAndUpdate is an atomic compare-and-set, and the repositories still write
 * that way. FerretDB 1.24 (our CI server) reads and writes a filtered update in two steps outside a transaction
 * (FerretDB/FerretDB#3040), so two concurrent writers with the same revision BOTH succeed there. Holding this lock
 * around the conditional write keeps "exactly one wins" true on both servers with one code path, at the price of
 * two small writes per transition. A lock of a crashed instance is taken over once its lease is over.
 */
import { randomBytes } from 'node:crypto';
import mongoose, { type Connection } from 'mongoose';
import { apiError } from '../errors.js';
import { isDuplicateKey } from './duplicate-key.js';
import { queryTimeoutMs } from './query-limits.js';
import { writeLockModel, type WriteLockDocument } from './write-lock.schema.js';

export interface WriteLocks {
  /** Runs `critical` while holding the lock on `key`; waits for another holder up to the wait limit (then 409). */
  withLock<T>(key: string, critical: () => Promise<T>): Promise<T>;
}

export interface WriteLockOptions {
  /**
   * Longer than what a holder's operations can take, so only a dead holder loses it: by default 30 s, or four
   * query limits (DB_QUERY_TIMEOUT_MS) if that is longer.
   */
  leaseMs?: number;
  /** How long a writer waits for a busy record before answering 409 `conflict`. */
  waitMs?: number;
}

const RELEASE_RETRY_MS = 500;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createWriteLocks(connection: Connection, options: WriteLockOptions = {}): WriteLocks {
  const maxTimeMS = queryTimeoutMs(connection);
  const leaseMs = options.leaseMs ?? Math.max(30_000, 4 * maxTimeMS);
  const waitMs = options.waitMs ?? 5_000;
  const Locks = writeLockModel(connection);

  async function acquire(key: string, owner: string): Promise<void> {
    const deadline = Date.now() + waitMs;
    for (let attempt = 0; ; attempt += 1) {
      try {
        await Locks.create([{ _id: key, owner, leaseUntil: new Date(Date.now() + leaseMs) }]);
        return;
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
      // Held. If the holder died, its lease is over: remove THAT holder's lock (by owner, so a lock another waiter
      // has just taken is left alone) and race for it again; the insert decides.
      const held = await Locks.findById(key).lean<WriteLockDocument>().maxTimeMS(maxTimeMS);
      if (held && held.leaseUntil.getTime() <= Date.now()) {
        await Locks.deleteOne(
          { _id: key, owner: held.owner, leaseUntil: mongoose.trusted({ $lte: new Date() }) },
          { maxTimeMS },
        );
      }
      if (Date.now() >= deadline)
        throw apiError('conflict', 'The resource is being changed by another request; try again.');
      await sleep(Math.min(50, 2 + attempt * 3) * (0.5 + Math.random()));
    }
  }

  async function release(key: string, owner: string, leaseEnd: number): Promise<void> {
    try {
      await Locks.deleteOne({ _id: key, owner }, { maxTimeMS });
    } catch {
      // Typically the database went away mid-request. Keep trying in the background until the lease would end
      // anyway, so the record is writable as soon as the database is back rather than a lease later.
      if (Date.now() + RELEASE_RETRY_MS < leaseEnd)
        setTimeout(() => void release(key, owner, leaseEnd), RELEASE_RETRY_MS).unref();
    }
  }

  return {
    async withLock(key, critical) {
      const owner = randomBytes(12).toString('base64url');
      await acquire(key, owner);
      const leaseEnd = Date.now() + leaseMs;
      try {
        return await critical();
      } finally {
        await release(key, owner, leaseEnd);
      }
    },
  };
}
