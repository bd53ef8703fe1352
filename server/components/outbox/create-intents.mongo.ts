/**
 * The create intents of records created on MongoDB (create-intents.schema.ts says why they exist): the intent a
 * create writes before its record, its retirement once the record's events are delivered, and the records the outbox
 * drain must still deliver because of one. The repository (registrations.mongo.ts) decides when; this file knows how.
 */
import mongoose, { type Connection } from 'mongoose';
import { batchedDeletes, batchedInserts, collectionOf } from '../../db/batched-writes.mongo.js';
import { MAX_TIME_MS } from '../../db/query-limits.js';
import type { OutboxEvent, OutboxFields } from './outbox.model.js';
import { createIntentModel, type CreateIntentDocument } from './create-intents.schema.js';

/**
 * How long an intent whose record is not there is kept: far beyond any insert still on its way (the fault suite
 * stalls the database for 10 s); after it, the create is taken as never landed.
 */
const INTENT_HORIZON_MS = 10 * 60_000;
/** Pages of intents one `pending` call reads at most (bounds a drain run behind many cut-off inserts). */
const INTENT_PAGES = 10;
/** Retirements gather this long into one deletion (nobody waits for them; see `retire`). */
const RETIRE_LINGER_MS = 100;

/** A created record as the intents see it. */
type Created = OutboxFields & { id: string; organizationId: string; createdAt: Date };

export interface CreateIntents<T> {
  /** The intent of a create that inserts `record` with outbox events. */
  intentFor(record: Created): CreateIntentDocument;
  write(intent: CreateIntentDocument): Promise<void>;
  /**
   * Queues an intent's deletion, with others gathered for RETIRE_LINGER_MS: nobody waits for it (housekeeping), and
   * a failure leaves the intent to the drain, which finds its events delivered and retires it then.
   */
  retire(id: string): void;
  /** Retires the record's intents none of whose events is among `left` (the record's outbox after a clear). */
  retireDelivered(recordId: string, left: readonly OutboxEvent[]): Promise<void>;
  /**
   * Up to `limit` records of intents older than `before` with events still to deliver (hidden ones included);
   * intents with nothing left are retired, and so is one whose record is not there after INTENT_HORIZON_MS.
   */
  pending(before: Date, limit: number): Promise<T[]>;
}

/**
 * The intents of the records `readRecord` reads as stored documents (their `outbox` included); `toRecord` turns
 * one into the record the drain delivers, with every event it stores.
 */
export function createIntentsOn<D extends { outbox?: unknown }, T>(
  connection: Connection,
  readRecord: (id: string) => Promise<D | null>,
  toRecord: (doc: D) => T,
): CreateIntents<T> {
  const Intents = createIntentModel(connection);
  // Every create writes and deletes one intent: those of concurrent creates go in one command each (write-batcher.ts).
  const inserts = batchedInserts(collectionOf(Intents));
  const deletes = batchedDeletes(collectionOf(Intents), {
    lingerMs: RETIRE_LINGER_MS,
  });

  function retire(id: string): void {
    deletes.write(id).catch(() => undefined);
  }

  return {
    intentFor(record) {
      const eventIds = (record.outbox ?? []).map((event) => event.id);
      return {
        _id: eventIds[0],
        recordId: record.id,
        organizationId: record.organizationId,
        eventIds,
        at: record.outboxAt ?? record.createdAt,
      };
    },

    async write(intent) {
      await inserts.write(intent);
    },

    retire,

    async retireDelivered(recordId, left) {
      const leftIds = new Set(left.map((event) => event.id));
      const intents = await Intents.find({ recordId }).lean<CreateIntentDocument[]>().maxTimeMS(MAX_TIME_MS);
      for (const intent of intents) if (!intent.eventIds.some((id) => leftIds.has(id))) retire(intent._id);
    },

    async pending(before, limit) {
      const records: T[] = [];
      // Intents kept (record not there yet) or retired here return nothing: read on past them, so a run of cut-off
      // inserts cannot hide a later create whose entry is due.
      let after: { at: Date; _id: string } | undefined;
      for (let page = 0; page < INTENT_PAGES && records.length < limit; page += 1) {
        const intents = await Intents.find({
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
          .lean<CreateIntentDocument[]>()
          .maxTimeMS(MAX_TIME_MS);
        for (const intent of intents) {
          const doc = await readRecord(intent.recordId);
          const left = ((doc?.outbox ?? []) as OutboxEvent[]).some((event) => intent.eventIds.includes(event.id));
          if (doc && left) records.push(toRecord(doc));
          else if (doc || before.getTime() - intent.at.getTime() > INTENT_HORIZON_MS) retire(intent._id);
        }
        if (intents.length < limit) break;
        const last = intents[intents.length - 1];
        after = { at: last.at, _id: last._id };
      }
      return records.slice(0, limit);
    },
  };
}
