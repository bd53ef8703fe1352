/**
 * The due items of one repository's records on MongoDB (due-items.schema.ts says why they exist): the item a write
 * inserts before it stores events, its retirement once they are delivered, and the records the outbox drain must
 * still deliver because of one. The repository decides when; this file knows how.
 */
import mongoose, { type Connection } from 'mongoose';
import { batchedDeletes, batchedInserts, collectionOf } from '../../db/batched-writes.mongo.js';
import { queryTimeoutMs } from '../../db/query-limits.js';
import { isAppError } from '../../../lib/app-error.js';
import type { OutboxEvent } from './outbox.model.js';
import { dueItemModel, type DueItemDocument, type OUTBOX_HOLDERS } from './due-items.schema.js';

/**
 * How long an item whose record is not there is kept: far beyond any insert still on its way (the fault suite
 * stalls the database for 10 s); after it, the write is taken as never landed.
 */
const HORIZON_MS = 10 * 60_000;
/** Pages of items one `pending` call reads at most (bounds a drain run behind many cut-off writes). */
const PAGES = 10;
/** Retirements gather this long into one deletion (nobody waits for them; see `retire`). */
const RETIRE_LINGER_MS = 100;

/** The record's write lock was held by another request for the whole wait (write-locks.ts answers 409). */
const isBusy = (error: unknown) => isAppError(error) && error.code === 'conflict';

export interface DueItems<T> {
  /** The item of a write that stores `events` on `record` at `at`. */
  itemFor(record: { id: string; organizationId: string }, events: readonly OutboxEvent[], at: Date): DueItemDocument;
  write(item: DueItemDocument): Promise<void>;
  /**
   * Queues an item's deletion, with others gathered for RETIRE_LINGER_MS: nobody waits for it (housekeeping), and
   * a failure leaves the item to the drain, which finds its events delivered and retires it then.
   */
  retire(id: string): void;
  /** Retires the record's items none of whose events is among `left` (the record's outbox after a clear). */
  retireDelivered(recordId: string, left: readonly OutboxEvent[]): Promise<void>;
  /**
   * Up to `limit` records of items older than `before` with events still to deliver (hidden ones included); items
   * with nothing left are retired, and so is one whose record is not there after HORIZON_MS.
   */
  pending(before: Date, limit: number): Promise<T[]>;
  /** How many records have items waiting, and since when the oldest does (items a drain will retire included). */
  backlog(): Promise<{ count: number; oldest?: Date }>;
}

export interface DueItemsOptions<D, T> {
  holder: (typeof OUTBOX_HOLDERS)[number];
  /** The record as stored, by id (its `outbox` included). */
  readRecord(id: string): Promise<D | null>;
  /** The stored record as the drain delivers it, with every event it stores. */
  toRecord(doc: D): T;
  /**
   * Runs `check` while no write of the record can run (its write lock), so an item is never retired while the
   * write it announces is still on its way.
   */
  whileLocked<R>(recordId: string, check: () => Promise<R>): Promise<R>;
}

export function createDueItems<D extends { outbox?: unknown }, T>(
  connection: Connection,
  options: DueItemsOptions<D, T>,
): DueItems<T> {
  const maxTimeMS = queryTimeoutMs(connection);
  const { holder } = options;
  const Items = dueItemModel(connection);
  // Every write with events writes and deletes one item: those of concurrent writes go in one command each.
  const inserts = batchedInserts(collectionOf(Items), { maxTimeMS });
  const deletes = batchedDeletes(collectionOf(Items), { maxTimeMS, lingerMs: RETIRE_LINGER_MS });

  function retire(id: string): void {
    deletes.write(id).catch(() => undefined);
  }
  const eventsOf = (doc: D | null) => ((doc?.outbox ?? []) as OutboxEvent[]).map((event) => event.id);
  const holds = (doc: D | null, item: DueItemDocument) => eventsOf(doc).some((id) => item.eventIds.includes(id));

  return {
    itemFor(record, events, at) {
      const eventIds = events.map((event) => event.id);
      return { _id: eventIds[0], holder, recordId: record.id, organizationId: record.organizationId, eventIds, at };
    },

    async write(item) {
      await inserts.write(item);
    },

    retire,

    async retireDelivered(recordId, left) {
      const leftIds = new Set(left.map((event) => event.id));
      // The collection holds only work in flight or left behind: reading it by any field stays cheap.
      const items = await Items.find({ holder, recordId }).lean<DueItemDocument[]>().maxTimeMS(maxTimeMS);
      for (const item of items) if (!item.eventIds.some((id) => leftIds.has(id))) retire(item._id);
    },

    async backlog() {
      // The collection holds only the work in flight or left behind: read whole, it stays small.
      const items = await Items.find({ holder })
        .select({ at: 1, recordId: 1 })
        .lean<{ at: Date; recordId: string }[]>()
        .maxTimeMS(maxTimeMS);
      if (items.length === 0) return { count: 0 };
      const count = new Set(items.map((item) => item.recordId)).size;
      return { count, oldest: new Date(Math.min(...items.map((item) => item.at.getTime()))) };
    },

    async pending(before, limit) {
      const records: T[] = [];
      // A record with the items of several writes is delivered once: its whole outbox goes at a time.
      const seen = new Set<string>();
      // Items kept (record not there yet) or retired here return nothing: read on past them, so a run of cut-off
      // writes cannot hide a later one whose events are due.
      let after: { at: Date; _id: string } | undefined;
      for (let page = 0; page < PAGES && records.length < limit; page += 1) {
        const items = await Items.find({
          holder,
          at: mongoose.trusted({ $lte: before }),
          ...(after && {
            $or: [
              { at: mongoose.trusted({ $gt: after.at }) },
              { at: after.at, _id: mongoose.trusted({ $gt: after._id }) },
            ],
          }),
        })
          .sort({ at: 1, _id: 1 })
          .limit(limit)
          .lean<DueItemDocument[]>()
          .maxTimeMS(maxTimeMS);
        for (const item of items) {
          if (seen.has(item.recordId)) continue;
          const take = (doc: D) => {
            seen.add(item.recordId);
            records.push(options.toRecord(doc));
          };
          const doc = await options.readRecord(item.recordId);
          if (doc && holds(doc, item)) take(doc);
          else if (doc) {
            // Nothing of it left, unless its write is still on its way: looked at again under the record's lock.
            // A record a request holds that long is left for the next run (its writer delivers meanwhile).
            let again: D | null;
            try {
              again = await options.whileLocked(item.recordId, () => options.readRecord(item.recordId));
            } catch (error) {
              if (isBusy(error)) continue;
              throw error;
            }
            if (again && holds(again, item)) take(again);
            else retire(item._id);
          } else if (before.getTime() - item.at.getTime() > HORIZON_MS) retire(item._id);
        }
        if (items.length < limit) break;
        const last = items[items.length - 1];
        after = { at: last.at, _id: last._id };
      }
      return records.slice(0, limit);
    },
  };
}
