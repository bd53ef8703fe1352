/**
 * Schema 5: pending outboxes are found through due items (components/outbox/due-items.schema.ts) instead of an
 * index on the records' `outboxAt` and, for creates, create intents. Turns what an older build left into due items:
 * every record with a pending outbox (`outboxAt` set) and every create intent; then drops what is no longer read
 * (the intents' collection, the `outboxAt` indexes). Runs once, when migrating a database from below version 5: it
 * reads both record collections whole, which a migration may do and a request or a periodic job may not.
 */
import type { Connection } from 'mongoose';
import { isDuplicateKey } from '../db/duplicate-key.js';

const HOLDERS = [
  { holder: 'registrations', collection: 'registrations' },
  { holder: 'changeSets', collection: 'change_sets' },
] as const;
const CREATE_INTENTS = 'registration_create_intents';
const OBSOLETE_INDEX = 'outboxAt_1';
/** NamespaceNotFound and IndexNotFound: nothing to drop. */
const NOTHING_TO_DROP = new Set([26, 27]);

interface DueItem {
  _id: string;
  holder: string;
  recordId: string;
  organizationId: string;
  eventIds: string[];
  at: Date;
}

async function dropping(drop: () => Promise<unknown>): Promise<void> {
  try {
    await drop();
  } catch (error) {
    if (!NOTHING_TO_DROP.has((error as { code?: number }).code ?? 0)) throw error;
  }
}

/** Writes the due items of what an older build left pending; the number of items written. */
export async function upgradeOutbox(connection: Connection): Promise<number> {
  const db = connection.db!;
  const items = db.collection<DueItem>('outbox_due');
  let written = 0;
  async function write(item: DueItem): Promise<void> {
    try {
      await items.insertOne(item);
      written += 1;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
  }
  for (const { holder, collection } of HOLDERS) {
    const pending = db
      .collection<{ _id: string; organizationId: string; outbox?: { id: string }[]; outboxAt?: Date }>(collection)
      .find({ outboxAt: { $exists: true } }, { projection: { organizationId: 1, outbox: 1, outboxAt: 1 } });
    for await (const doc of pending) {
      const eventIds = (doc.outbox ?? []).map((event) => event.id);
      if (eventIds.length === 0 || !doc.outboxAt) continue;
      await write({
        _id: eventIds[0],
        holder,
        recordId: doc._id,
        organizationId: doc.organizationId,
        eventIds,
        at: doc.outboxAt,
      });
    }
  }
  const intents = db.collection<Omit<DueItem, 'holder'>>(CREATE_INTENTS).find();
  for await (const intent of intents) await write({ ...intent, holder: 'registrations' });
  await dropping(() => db.collection(CREATE_INTENTS).drop());
  for (const { collection } of HOLDERS) await dropping(() => db.collection(collection).dropIndex(OBSOLETE_INDEX));
  return written;
}
