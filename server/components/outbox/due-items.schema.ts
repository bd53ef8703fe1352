/**
 * Outbox due items (MongoDB only): a small collection that says "this record may hold outbox events that are not
 * delivered yet". Every write that stores events on a record inserts one before the write and deletes it once the
 * events are delivered, so the outbox drain finds pending work by reading this collection — as large as the work in
 * flight or left behind, nothing in the steady state — instead of filtering the records' collections, which grow
 * with every registration and which FerretDB 1.24 scans document by document for such a filter (a drain every 5 s
 * kept it at 120–170 % CPU with no traffic at 10k registrations). A healthy create never updates its record either: its
 * events stay on it, hidden, once delivered (the next write of the record drops them).
 */
import { Schema, type Connection, type InferSchemaType, type Model } from 'mongoose';

export const OUTBOX_HOLDERS = ['registrations', 'changeSets'] as const;

export const dueItemSchema = new Schema(
  {
    /** The id of the write's first outbox event (one item per write: a retry cannot write a second). */
    _id: { type: String, required: true, immutable: true },
    /** Which repository's records the item points into. */
    holder: { type: String, enum: OUTBOX_HOLDERS, required: true, immutable: true },
    recordId: { type: String, required: true, immutable: true },
    organizationId: { type: String, required: true, immutable: true },
    /** The events the write stored; the item is done once none of them is left in the record's outbox. */
    eventIds: { type: [String], required: true, immutable: true },
    /** When the write happened: the drain leaves younger items to the writer's own delivery. */
    at: { type: Date, required: true, immutable: true },
  },
  { collection: 'outbox_due', strict: 'throw', strictQuery: 'throw', versionKey: false, id: false },
);

// The drain reads a holder's items oldest first (an index for MongoDB; on FerretDB the collection is small).
dueItemSchema.index({ holder: 1, at: 1, _id: 1 });

export type DueItemDocument = InferSchemaType<typeof dueItemSchema>;

export function dueItemModel(connection: Connection): Model<DueItemDocument> {
  return (connection.models.OutboxDueItem ??
    connection.model('OutboxDueItem', dueItemSchema)) as Model<DueItemDocument>;
}
