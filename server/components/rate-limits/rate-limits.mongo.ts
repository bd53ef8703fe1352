/**
 * Rate-limit counters shared by every instance (docs/architecture.md §1.8) as fixed-window block claims: the window's slots
 * 1…limit are cut into blocks of `blockSizeFor(limit)` slots, and an instance claims the n-th block of a window by
 * inserting the document `<key>:<window>:b<n>`. Only an insert checked by the unique `_id` decides who holds a block,
 * so no slot is ever admitted twice and the limit is never exceeded, on MongoDB and on FerretDB alike.
 *
 * Why not a counter: FerretDB 1.24 runs an `$inc` upsert as read-then-write (FerretDB/FerretDB#3040), so 600
 * concurrent requests against a limit of 60 all passed with rate-limiter-flexible's Mongo limiter (the counter read
 * 25–28). Redis would make the counter atomic but adds a server to run in every deployment; the unique insert is
 * what both databases already guarantee.
 *
 * Why blocks: one insert per request was the largest database cost of a read (issue 15). A block admits up to
 * `size` requests for one insert; the price is under-admission across instances, never over-admission: slots an
 * instance has claimed but not used when its traffic stops are lost to the others for the rest of the window. The
 * block is a twentieth of the limit (at most 64), so each instance strands at most 5 % of the limit per key and
 * window, and a limit under 40 keeps blocks of one slot (exact, as before).
 *
 * Each process claims blocks in order from a local cursor, one claim in flight per key (requests arriving meanwhile
 * wait for it and share its slots); a collision means another instance took the block, and the cursor jumps past
 * the window's stored blocks. While the database errors, an in-memory limiter stands in so a hiccup neither opens
 * the gate nor fails the request. A rejected request past the limit costs nothing: this process knows its claims.
 */
import type { Connection } from 'mongoose';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimitStore } from './rate-limits.repository.js';
import { isDuplicateKey } from '../../db/duplicate-key.js';
import { queryTimeoutMs } from '../../db/query-limits.js';

/** The collection of the slots; `db:migrate` creates its indexes. (`rate_limits` held the old `$inc` counters.) */
export const RATE_LIMIT_COLLECTION = 'rate_limit_slots';

/** Claims tried per request before it is refused; each miss means another instance won a block. */
const MAX_ATTEMPTS = 8;
/** Blocks are a twentieth of the limit (at most 5 % stranded per instance), capped so one claim stays small. */
const BLOCK_FRACTION = 20;
const MAX_BLOCK = 64;

/** Slots one claim takes for `limit`: 1 below 40 (exact), else limit / 20, at most 64. */
export function blockSizeFor(limit: number): number {
  return Math.max(1, Math.min(MAX_BLOCK, Math.floor(limit / BLOCK_FRACTION)));
}
/** Local cursors of ended windows are dropped once the map grows past this. */
const SWEEP_THRESHOLD = 10_000;

interface SlotDocument {
  _id: string;
  key: string;
  window: number;
  expire: Date;
}

interface LocalCursor {
  /** The next block this process will try to claim (1-based). */
  nextBlock: number;
  /** Claimed slots not yet handed out: the next one, and the last of the claimed block. */
  slot: number;
  lastSlot: number;
  /** The claim in flight, which requests without a slot wait for. */
  claiming?: Promise<boolean | 'error'>;
  windowEnd: number;
}

export function createMongoRateLimitStore(connection: Connection, clock: () => number = Date.now): RateLimitStore {
  const maxTimeMS = queryTimeoutMs(connection);
  const slots = connection.getClient().db(connection.name).collection<SlotDocument>(RATE_LIMIT_COLLECTION);
  const cursors = new Map<string, LocalCursor>();
  const insurance = new Map<string, RateLimiterMemory>();

  function cursorFor(key: string, window: number, windowEnd: number, now: number): LocalCursor {
    const id = `${key}:${window}`;
    let cursor = cursors.get(id);
    if (!cursor) {
      if (cursors.size >= SWEEP_THRESHOLD) for (const [k, c] of cursors) if (c.windowEnd <= now) cursors.delete(k);
      cursor = { nextBlock: 1, slot: 1, lastSlot: 0, windowEnd };
      cursors.set(id, cursor);
      // The first sight of a new window clears the key's older slots; a TTL index does it too where the server has one.
      slots.deleteMany({ key, window: { $lt: window } }, { maxTimeMS }).catch(() => undefined);
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

  /**
   * Claims the cursor's next free block (one insert; on a collision the cursor jumps past the stored blocks and
   * tries again). Resolves with false when the window has no block left, 'error' when the database failed.
   */
  async function claim(
    cursor: LocalCursor,
    key: string,
    window: number,
    limit: number,
    size: number,
  ): Promise<boolean | 'error'> {
    const blocks = Math.ceil(limit / size);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const block = cursor.nextBlock;
      if (block > blocks) return false;
      cursor.nextBlock += 1;
      try {
        await slots.insertOne(
          { _id: `${key}:${window}:b${block}`, key, window, expire: new Date(cursor.windowEnd) },
          { maxTimeMS },
        );
        cursor.slot = (block - 1) * size + 1;
        cursor.lastSlot = Math.min(limit, block * size);
        return true;
      } catch (error) {
        if (!isDuplicateKey(error)) return 'error';
      }
      // Another instance holds that block: continue after everything the window has stored so far.
      try {
        const taken = await slots.countDocuments({ key, window }, { maxTimeMS });
        cursor.nextBlock = Math.max(cursor.nextBlock, taken + 1);
      } catch {
        return 'error';
      }
    }
    return false;
  }

  return {
    async consume(key, limit, windowMs) {
      const now = clock();
      const window = Math.floor(now / windowMs) * windowMs;
      const windowEnd = window + windowMs;
      const resetMs = windowEnd - now;
      const cursor = cursorFor(key, window, windowEnd, now);
      const size = blockSizeFor(limit);
      for (;;) {
        if (cursor.slot <= cursor.lastSlot) {
          const slot = cursor.slot;
          cursor.slot += 1;
          return { allowed: true, remaining: limit - slot, resetMs };
        }
        // Refused only once no claim is in flight: the one under way may still bring slots.
        if (!cursor.claiming && cursor.nextBlock > Math.ceil(limit / size))
          return { allowed: false, remaining: 0, resetMs };
        // One claim at a time per key: concurrent requests share its block instead of each claiming one.
        cursor.claiming ??= claim(cursor, key, window, limit, size).finally(() => {
          cursor.claiming = undefined;
        });
        const outcome = await cursor.claiming;
        if (outcome === 'error') return insured(key, limit, windowMs);
        if (!outcome && cursor.slot > cursor.lastSlot) return { allowed: false, remaining: 0, resetMs };
      }
    },
  };
}
