/**
 * How many registrations each organization holds, kept beside the registrations so the plan limit (DESIGN.md §1.8)
 * is reserved by one conditional upsert instead of a count-then-insert race. `db:migrate` recounts it from the
 * registrations, which repairs any drift a crash between the two single-document writes could leave.
 */
import { Schema, type Connection, type InferSchemaType, type Model } from 'mongoose';

export const registrationCounterSchema = new Schema(
  {
    _id: { type: String, required: true, immutable: true },
    count: { type: Number, required: true, default: 0 },
  },
  { collection: 'registration_counters', strict: 'throw', strictQuery: 'throw', versionKey: false, id: false },
);

export type RegistrationCounterDocument = InferSchemaType<typeof registrationCounterSchema>;

export function registrationCounterModel(connection: Connection): Model<RegistrationCounterDocument> {
  return connection.models.RegistrationCounter ?? connection.model('RegistrationCounter', registrationCounterSchema);
}
