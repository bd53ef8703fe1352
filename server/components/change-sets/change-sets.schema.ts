/** The mongoose schema of change sets; the stored type is inferred and checked against the domain `ChangeSet`. */
import { Schema, type Connection, type InferSchemaType, type Model } from 'mongoose';
import { CHANGE_SET_STATUSES, type ChangeSet } from './change-sets.model.js';

export const changeSetSchema = new Schema(
  {
    _id: { type: String, required: true, immutable: true },
    organizationId: { type: String, required: true, immutable: true },
    registrationId: { type: String, required: true, immutable: true },
    status: { type: String, enum: CHANGE_SET_STATUSES, required: true },
    baseRevision: { type: Number, required: true, immutable: true },
    changes: { type: Schema.Types.Mixed, default: () => ({}), immutable: true },
    revision: { type: Number, required: true, min: 1 },
    createdAt: { type: Date, required: true, immutable: true },
    updatedAt: { type: Date, required: true },
    createdBy: { type: String, required: true, immutable: true },
    decidedAt: { type: Date },
    decidedBy: { type: String },
    idempotencyKey: { type: String, immutable: true },
    // Undelivered effects of the proposal (outbox/outbox.model.ts), found through their due item.
    outbox: { type: [Schema.Types.Mixed], default: undefined },
    outboxAt: { type: Date },
  },
  { collection: 'change_sets', strict: 'throw', strictQuery: 'throw', minimize: false, versionKey: false, id: false },
);

// The change sets of one registration, in keyset order, with and without the status filter.
changeSetSchema.index({ organizationId: 1, registrationId: 1, createdAt: 1, _id: 1 });
changeSetSchema.index({ organizationId: 1, registrationId: 1, status: 1, createdAt: 1, _id: 1 });
// A retried proposal finds the change set it made (single-field sparse unique: see registrations.schema.ts).
changeSetSchema.index({ idempotencyKey: 1 }, { unique: true, sparse: true });

export type ChangeSetDocument = InferSchemaType<typeof changeSetSchema>;

export function changeSetModel(connection: Connection): Model<ChangeSetDocument> {
  return (connection.models.ChangeSet ?? connection.model('ChangeSet', changeSetSchema)) as Model<ChangeSetDocument>;
}

export function toChangeSet(doc: ChangeSetDocument): ChangeSet {
  const { _id, ...rest } = doc;
  return { id: _id, ...rest } as ChangeSet;
}

export function fromChangeSet(record: ChangeSet): ChangeSetDocument {
  const { id, ...rest } = record;
  return { _id: id, ...rest };
}

type SameKeys<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends [never, never] ? true : never;
const sameFields: SameKeys<Omit<ChangeSetDocument, '_id'>, Omit<ChangeSet, 'id'>> = true;
void sameFields;
