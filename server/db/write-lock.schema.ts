/** Lock documents of `write-locks.ts`: one per locked key, held by `owner` until `leaseUntil`. */
import { Schema, type Connection, type InferSchemaType, type Model } from 'mongoose';

export const writeLockSchema = new Schema(
  {
    /** The locked key, e.g. `registration:reg_…`. */
    _id: { type: String, required: true, immutable: true },
    owner: { type: String, required: true, immutable: true },
    leaseUntil: { type: Date, required: true },
  },
  { collection: 'write_locks', strict: 'throw', strictQuery: 'throw', versionKey: false, id: false },
);

export type WriteLockDocument = InferSchemaType<typeof writeLockSchema>;

export function writeLockModel(connection: Connection): Model<WriteLockDocument> {
  return (connection.models.WriteLock ?? connection.model('WriteLock', writeLockSchema)) as Model<WriteLockDocument>;
}
