/**
 * Rate-limit counters shared by every instance (DESIGN.md §1.8, research §6.1): rate-limiter-flexible's
 * RateLimiterMongo (atomic `$inc` upserts on a unique `key`), with an in-memory insurance limiter that takes over
 * while the database errors, so a database hiccup neither opens the gate nor fails the request.
 *
 * FerretDB 1.24 runs the limiter's `$inc` upsert as read-then-write (FerretDB/FerretDB#3040), so simultaneous
 * requests on one key can lose increments there (the limit is enforced, but may let a few extra requests through
 * under bursts); on MongoDB the upsert is atomic. Locking every request would cost more than the slack is worth.
 */
import type { Connection } from 'mongoose';
import { RateLimiterMemory, RateLimiterMongo, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimitStore } from '../middleware/rate-limit-store.js';

/** The collection of the counters; `db:migrate` creates its indexes (never the limiter itself, at boot). */
export const RATE_LIMIT_COLLECTION = 'rate_limits';

export function createMongoRateLimitStore(connection: Connection): RateLimitStore {
  // One limiter per (limit, window): rate-limiter-flexible fixes both at construction. The key prefix carries
  // only the window, so a plan change (new limit, same window) keeps counting the same window.
  const limiters = new Map<string, RateLimiterMongo>();

  function limiterFor(limit: number, windowMs: number): RateLimiterMongo {
    const id = `${limit}:${windowMs}`;
    let limiter = limiters.get(id);
    if (!limiter) {
      const duration = windowMs / 1000;
      limiter = new RateLimiterMongo({
        // The driver's client, not the mongoose connection: the limiter calls the native collection API.
        storeClient: connection.getClient(),
        dbName: connection.name,
        tableName: RATE_LIMIT_COLLECTION,
        keyPrefix: `w${windowMs}`,
        points: limit,
        duration,
        disableIndexesCreation: true,
        insuranceLimiter: new RateLimiterMemory({ keyPrefix: `w${windowMs}`, points: limit, duration }),
      });
      limiters.set(id, limiter);
    }
    return limiter;
  }

  return {
    async consume(key, limit, windowMs) {
      try {
        const res = await limiterFor(limit, windowMs).consume(key);
        return { allowed: true, remaining: res.remainingPoints, resetMs: res.msBeforeNext };
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        return { allowed: false, remaining: 0, resetMs: rejection.msBeforeNext };
      }
    },
  };
}
