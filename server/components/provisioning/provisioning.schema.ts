/**
 * The mongoose schemas of provisioning: outbox steps (`provisioning_steps`), the steps due (`provisioning_due`), each
 * registration's step ids (`provisioning_step_lists`) and provisioned clients (`provisioned_clients`).
 */
import { Schema, type Connection, type InferSchemaType, type Model } from 'mongoose';
import { STEP_STATUSES } from './provisioning.model.js';

export const provisioningStepSchema = new Schema(
  {
    _id: { type: String, required: true, immutable: true },
    organizationId: { type: String, required: true, immutable: true },
    registrationId: { type: String, required: true, immutable: true },
    kind: { type: String, enum: ['register', 'update', 'delete'], required: true, immutable: true },
    revision: { type: Number, required: true, immutable: true },
    status: { type: String, enum: STEP_STATUSES, required: true },
    attempts: { type: Number, required: true },
    nextAttemptAt: { type: Date, required: true },
    leaseUntil: { type: Date },
    lastError: { type: String },
    createdAt: { type: Date, required: true, immutable: true },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'provisioning_steps', strict: 'throw', strictQuery: 'throw', versionKey: false, id: false },
);
// A registration's steps (read by id through `provisioning_step_lists`; the index serves queries by hand).
provisioningStepSchema.index({ organizationId: 1, registrationId: 1, createdAt: 1 });

/**
 * The steps due or in progress, one document per step (`_id` = the step's id), with when it is due: what the worker
 * polls, so finding work costs as much as the work there is — FerretDB 1.24 would scan every step, kept as history,
 * document by document (every second, with no work). Written before the step changes, removed once
 * it is done or failed; a stale one is mended by the next claim.
 */
export const provisioningDueSchema = new Schema(
  {
    _id: { type: String, required: true, immutable: true },
    dueAt: { type: Date, required: true },
  },
  { collection: 'provisioning_due', strict: 'throw', strictQuery: 'throw', versionKey: false, id: false },
);
provisioningDueSchema.index({ dueAt: 1, _id: 1 });

/** The ids of a registration's steps (`_id` = the registration id), so its steps are read by `_id` only. */
export const provisioningStepListSchema = new Schema(
  {
    _id: { type: String, required: true, immutable: true },
    organizationId: { type: String, required: true, immutable: true },
    stepIds: { type: [String], required: true },
  },
  { collection: 'provisioning_step_lists', strict: 'throw', strictQuery: 'throw', versionKey: false, id: false },
);

export const provisionedClientSchema = new Schema(
  {
    /** The registration id. */
    _id: { type: String, required: true, immutable: true },
    organizationId: { type: String, required: true, immutable: true },
    clientId: { type: String, required: true },
    registrationClientUri: { type: String, required: true },
    registrationAccessTokenEncrypted: { type: String, required: true },
    revision: { type: Number, required: true },
    clientSecretSealed: { type: String },
    clientSecretIssuedAt: { type: Date },
    clientSecretExpiresAt: { type: Date },
    deletedAt: { type: Date },
    createdAt: { type: Date, required: true, immutable: true },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'provisioned_clients', strict: 'throw', strictQuery: 'throw', versionKey: false, id: false },
);
provisionedClientSchema.index({ organizationId: 1, _id: 1 });

type ProvisioningStepDocument = InferSchemaType<typeof provisioningStepSchema>;
type ProvisionedClientDocument = InferSchemaType<typeof provisionedClientSchema>;
type ProvisioningDueDocument = InferSchemaType<typeof provisioningDueSchema>;
type ProvisioningStepListDocument = InferSchemaType<typeof provisioningStepListSchema>;

export function provisioningDueModel(connection: Connection): Model<ProvisioningDueDocument> {
  return (connection.models.ProvisioningDue ??
    connection.model('ProvisioningDue', provisioningDueSchema)) as Model<ProvisioningDueDocument>;
}

export function provisioningStepListModel(connection: Connection): Model<ProvisioningStepListDocument> {
  return (connection.models.ProvisioningStepList ??
    connection.model('ProvisioningStepList', provisioningStepListSchema)) as Model<ProvisioningStepListDocument>;
}

export function provisioningStepModel(connection: Connection): Model<ProvisioningStepDocument> {
  return (connection.models.ProvisioningStep ??
    connection.model('ProvisioningStep', provisioningStepSchema)) as Model<ProvisioningStepDocument>;
}

export function provisionedClientModel(connection: Connection): Model<ProvisionedClientDocument> {
  return (connection.models.ProvisionedClient ??
    connection.model('ProvisionedClient', provisionedClientSchema)) as Model<ProvisionedClientDocument>;
}
