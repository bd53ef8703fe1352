/**
 * Create intents (MongoDB only): a small collection that says "this registration's create may have landed with
 * outbox events that are not delivered yet". The create inserts one before the record and deletes it once the
 * events are delivered, so a healthy create never updates the record — on FerretDB 1.24 (SQLite) every update
 * scans the whole registrations collection (80 ms at 20k records), while inserts and this collection's deletes stay
 * cheap. (A create whose delivery failed marks its record pending with one update, as any other write would.) The
 * outbox drain reads the ones older than its grace and delivers what the record carries.
 */
import { Schema, type Connection, type InferSchemaType, type Model } from 'mongoose';

export const createIntentSchema = new Schema(
  {
    /** The id of the create's first outbox event (one intent per create, a retry cannot write a second). */
    _id: { type: String, required: true, immutable: true },
    recordId: { type: String, required: true, immutable: true },
    organizationId: { type: String, required: true, immutable: true },
    /** The events the record was inserted with; the intent is done once none of them is left in its outbox. */
    eventIds: { type: [String], required: true, immutable: true },
    at: { type: Date, required: true, immutable: true },
  },
  { collection: 'registration_create_intents', strict: 'throw', strictQuery: 'throw', versionKey: false, id: false },
);

// The drain reads the oldest first; the collection holds only creates in flight or cut off, so it stays small.
createIntentSchema.index({ at: 1 });

export type CreateIntentDocument = InferSchemaType<typeof createIntentSchema>;

export function createIntentModel(connection: Connection): Model<CreateIntentDocument> {
  return (connection.models.RegistrationCreateIntent ??
    connection.model('RegistrationCreateIntent', createIntentSchema)) as Model<CreateIntentDocument>;
}
