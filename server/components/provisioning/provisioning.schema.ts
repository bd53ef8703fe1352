/** The mongoose schemas of provisioning: outbox steps (`provisioning_steps`) and provisioned clients (`provisioned_clients`). */
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
// The worker's "oldest due step" and a registration's steps.
provisioningStepSchema.index({ status: 1, createdAt: 1 });
provisioningStepSchema.index({ organizationId: 1, registrationId: 1, createdAt: 1 });

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

export function provisioningStepModel(connection: Connection): Model<ProvisioningStepDocument> {
  return (connection.models.ProvisioningStep ??
    connection.model('ProvisioningStep', provisioningStepSchema)) as Model<ProvisioningStepDocument>;
}

export function provisionedClientModel(connection: Connection): Model<ProvisionedClientDocument> {
  return (connection.models.ProvisionedClient ??
    connection.model('ProvisionedClient', provisionedClientSchema)) as Model<ProvisionedClientDocument>;
}
