/**
 * Rate-limit counters shared by every instance (DESIGN.md §1.8) as fixed-window slot claims: the n-th request of a
 * window inserts the document `<key>:<window>:<n>`, n ≤ limit. Only an insert checked by the unique `_id` decides
 * who holds a slot, so the limit is exact on MongoDB and on FerretDB alike.
 *
 * Why not a counter: FerretDB 1.24 runs an `$inc` upsert as read-then-write (FerretDB/FerretDB#3040), so 600
 * concurrent requests against a limit of 60 all passed with rate-limiter-flexible's Mongo limiter (the counter read
 * 25–28). Redis would make the counter atomic but adds a server to run in every deployment; the unique insert is
 * what both databases already guarantee, and costs one small insert per admitted request (a rejected request past
 * the limit costs nothing: this process knows its own claims).
 *
 * Each process hands out slot numbers in order from a local cursor, so its own concurrent requests never collide;
 * a collision means another instance took the slot, and the cursor jumps past the window's stored count. The
 * failure mode under contention is refusing a little early, never letting more than `limit` through. While the
 * database errors, an in-memory limiter stands in so a hiccup neither opens the gate nor fails the request.
 */
import type { Connection } from 'mongoose';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimitStore } from '../middleware/rate-limit-store.js';
import { isDuplicateKey } from './duplicate-key.js';
import { MAX_TIME_MS } from './query-limits.js';

/** The collection of the slots; `db:migrate` creates its indexes. (`rate_limits` held the old `$inc` counters.) */
export const RATE_LIMIT_COLLECTION = 'rate_limit_slots';

/** Claims tried per request before it is refused; each miss means another instance won a slot. */
const MAX_ATTEMPTS = 8;
/** Local cursors of ended windows are dropped once the map grows past this. */
const SWEEP_THRESHOLD = 10_000;

interface SlotDocument {
  _id: string;
  key: string;
  window: number;
  expire: Date;
}

interface LocalCursor {
  next: number;
  windowEnd: number;
}

export function createMongoRateLimitStore(connection: Connection, clock: () => number = Date.now): RateLimitStore {
  const slots = connection.getClient().db(connection.name).collection<SlotDocument>(RATE_LIMIT_COLLECTION);
  const cursors = new Map<string, LocalCursor>();
  const insurance = new Map<string, RateLimiterMemory>();

  function cursorFor(key: string, window: number, windowEnd: number, now: number): LocalCursor {
    const id = `${key}:${window}`;
    let cursor = cursors.get(id);
    if (!cursor) {
      if (cursors.size >= SWEEP_THRESHOLD) for (const [k, c] of cursors) if (c.windowEnd <= now) cursors.delete(k);
      cursor = { next: 1, windowEnd };
      cursors.set(id, cursor);
      // The first sight of a new window clears the key's older slots; a TTL index does it too where the server has one.
      slots.deleteMany({ key, window: { $lt: window } }, { maxTimeMS: MAX_TIME_MS }).catch(() => undefined);
    }
    return cursor;
  }

  async function insured(key: string, limit: number, windowMs: number) {
    const id = `${limit}:${windowMs}`;
    let limiter = insurance.get(id);
    if (!limiter) insurance.set(id, (limiter = new RateLimiterMemory({ points: limit, duration: windowMs / 1000 })));
    try {
      const res = await limiter.consume(key);
      return { allowed: true, remaining: res.remainingPoints, resetMs: res.msBeforeNext };
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      return { allowed: false, remaining: 0, resetMs: rejection.msBeforeNext };
    }
  }

  return {
    async consume(key, limit, windowMs) {
      const now = clock();
      const window = Math.floor(now / windowMs) * windowMs;
      const windowEnd = window + windowMs;
      const resetMs = windowEnd - now;
      const cursor = cursorFor(key, window, windowEnd, now);
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
        const slot = cursor.next;
        if (slot > limit) return { allowed: false, remaining: 0, resetMs };
        cursor.next += 1;
        try {
          await slots.insertOne(
            { _id: `${key}:${window}:${slot}`, key, window, expire: new Date(windowEnd) },
            { maxTimeMS: MAX_TIME_MS },
          );
          return { allowed: true, remaining: limit - slot, resetMs };
        } catch (error) {
          if (!isDuplicateKey(error)) return insured(key, limit, windowMs);
        }
        // Another instance holds that slot: continue after everything the window has stored so far.
        try {
          const taken = await slots.countDocuments({ key, window }, { maxTimeMS: MAX_TIME_MS });
          cursor.next = Math.max(cursor.next, taken + 1);
        } catch {
          return insured(key, limit, windowMs);
        }
      }
      return { allowed: false, remaining: 0, resetMs };
    },
  };
}
