/**
 * The mongoose schema of registrations (docs/architecture.md §1.9). The stored type is inferred from it and checked against
 * the domain `Registration` at compile time, so the two cannot drift.
 */
import { Schema, type Connection, type InferSchemaType, type Model } from 'mongoose';
import {
  APPLICATION_TYPES,
  awaitsReview,
  CLIENT_TYPES,
  REGISTRATION_STATUSES,
  type Registration,
} from './registrations.model.js';

export const registrationSchema = new Schema(
  {
    _id: { type: String, required: true, immutable: true },
    organizationId: { type: String, required: true, immutable: true },
    name: { type: String, required: true },
    description: { type: String, default: '' },
    clientType: { type: String, enum: CLIENT_TYPES, required: true },
    applicationType: { type: String, enum: APPLICATION_TYPES, required: true },
    policyProfileId: { type: String, required: true },
    templateId: { type: String },
    config: { type: Schema.Types.Mixed, default: () => ({}) },
    status: { type: String, enum: REGISTRATION_STATUSES, required: true },
    // Not immutable: a reviewer assigns it after creation (mongoose would silently drop updates to an immutable path).
    clientId: { type: String },
    revision: { type: Number, required: true, min: 1 },
    createdAt: { type: Date, required: true, immutable: true },
    updatedAt: { type: Date, required: true },
    createdBy: { type: String, required: true, immutable: true },
    submittedAt: { type: Date },
    submittedBy: { type: String },
    decidedAt: { type: Date },
    decidedBy: { type: String },
    pendingChangeSetId: { type: String },
    // The client secret's lifecycle (secrets/client-secret.model.ts): plain values, written and read as they are.
    secret: { type: Schema.Types.Mixed, default: undefined },
    // Legacy fields of the SHA-256 rotation (kept so records that have them still load and save).
    clientSecretHash: { type: String },
    clientSecretIssuedAt: { type: Date },
    idempotencyKey: { type: String, immutable: true },
    // Undelivered transition effects (outbox/outbox.model.ts): plain values, written and read as they are. Due
    // items (outbox/due-items.schema.ts) find them; `outboxAt` only says since when, and is not indexed.
    outbox: { type: [Schema.Types.Mixed], default: undefined },
    outboxAt: { type: Date },
    removedAt: { type: Date },
    // Stored only: present while the registration awaits review (registrations.model.ts awaitsReview), equal to its
    // `updatedAt` — the review queue's order — so the queue reads an index of what awaits review, not every record.
    reviewQueueAt: { type: Date },
  },
  {
    collection: 'registrations',
    strict: 'throw',
    strictQuery: 'throw',
    // `config: {}` must come back as `{}`, not vanish.
    minimize: false,
    versionKey: false,
    id: false,
  },
);

// Lists and the status filter; organizationId leads (tenant first), then the keyset order.
registrationSchema.index({ organizationId: 1, createdAt: 1, _id: 1 });
registrationSchema.index({ organizationId: 1, status: 1, createdAt: 1, _id: 1 });
// The review queue across organizations and within one: a range on `reviewQueueAt` (a date) skips every record
// without one, which is all but those awaiting review (FerretDB 1.24 has no partial index to say so; MongoDB uses
// these for the filter and the order alike).
registrationSchema.index({ reviewQueueAt: 1, _id: 1 });
registrationSchema.index({ organizationId: 1, reviewQueueAt: 1, _id: 1 });
// clientId is unique across the platform. Sparse: drafts have none. (FerretDB 1.24 ignores `sparse` but its
// SQLite unique indexes never collide on missing fields, so the effect is the same; partial indexes it lacks.)
registrationSchema.index({ clientId: 1 }, { unique: true, sparse: true });
// A retried create finds the record its first attempt made. The key is `[organizationId,
// subject, key]` in one string, so a single-field sparse unique index states "unique per organization and subject"
// the same way on MongoDB (where a sparse COMPOUND index would index records without a key) and on FerretDB 1.24
// (which has no partial indexes).
registrationSchema.index({ idempotencyKey: 1 }, { unique: true, sparse: true });

export type RegistrationDocument = InferSchemaType<typeof registrationSchema>;

export function registrationModel(connection: Connection): Model<RegistrationDocument> {
  return (connection.models.Registration ??
    connection.model('Registration', registrationSchema)) as Model<RegistrationDocument>;
}

/** A lean document → the domain record (optional fields absent, not null). */
export function toRegistration(doc: RegistrationDocument): Registration {
  const { _id, reviewQueueAt: _queued, ...rest } = doc;
  // Events without `outboxAt` are a create's, kept on the record after delivery and looked after by its due item
  // (outbox/due-items.schema.ts): not an outbox any read should see or deliver again.
  if (rest.outboxAt == null) delete rest.outbox;
  return { id: _id, ...rest } as Registration;
}

/**
 * The record with every event it stores, a create's hidden ones included: what the drain and a retried create
 * deliver, so a retry delivers what its first attempt could not, as on the embedded store.
 */
export function toRegistrationWithEvents(doc: RegistrationDocument): Registration {
  const outbox = doc.outbox as Registration['outbox'];
  return outbox?.length ? { ...toRegistration(doc), outbox } : toRegistration(doc);
}

/** The domain record → a document to insert or replace. */
export function fromRegistration(record: Registration): RegistrationDocument {
  const { id, ...rest } = record;
  return { _id: id, ...rest, ...(awaitsReview(record) && { reviewQueueAt: record.updatedAt }) };
}

/** What an update at `now` that leaves the record as `next` sets `reviewQueueAt` to: null removes it. */
export function reviewQueueAfter(next: Registration, now: Date): { reviewQueueAt: Date | null } {
  return { reviewQueueAt: awaitsReview(next) ? now : null };
}

// Compile-time check that the inferred document and the domain record carry the same fields.
type SameKeys<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends [never, never] ? true : never;
const sameFields: SameKeys<Omit<RegistrationDocument, '_id' | 'reviewQueueAt'>, Omit<Registration, 'id'>> = true;
void sameFields;
