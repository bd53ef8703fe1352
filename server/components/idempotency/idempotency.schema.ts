/**
 * The mongoose schema of Idempotency-Key records (docs/architecture.md §R.10): unique per organization + subject + key, with an
 * in-flight lease and an expiry. The TTL index on `expiresAt` is created by `db:migrate` where the server has TTL
 * indexes (MongoDB); FerretDB 1.24 does not implement `expireAfterSeconds`, so expiry is also enforced in code and
 * expired records are swept by the repository.
 */
import { Schema, type Connection, type InferSchemaType, type Model } from 'mongoose';

export const idempotencySchema = new Schema(
  {
    organizationId: { type: String, required: true, immutable: true },
    subject: { type: String, required: true, immutable: true },
    key: { type: String, required: true, immutable: true },
    fingerprint: { type: String, required: true },
    leaseUntil: { type: Date, required: true },
    /** The request holding the claim (instance + request), so that instance can tell when it is over. */
    holder: { type: String },
    expiresAt: { type: Date, required: true },
    /**
     * This claim's id, new with every takeover: its response is the `idempotency_responses` document of that id
     * (idempotency-responses.schema.ts). Absent on claims made before it existed.
     */
    claimId: { type: String },
    /** The response to replay, on claims completed before responses had a collection of their own. */
    response: { type: Schema.Types.Mixed },
  },
  {
    collection: 'idempotency_records',
    strict: 'throw',
    strictQuery: 'throw',
    minimize: false,
    versionKey: false,
    id: false,
  },
);
idempotencySchema.index({ organizationId: 1, subject: 1, key: 1 }, { unique: true });
idempotencySchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });

export type IdempotencyDocument = InferSchemaType<typeof idempotencySchema>;

export function idempotencyModel(connection: Connection): Model<IdempotencyDocument> {
  return (connection.models.IdempotencyRecord ??
    connection.model('IdempotencyRecord', idempotencySchema)) as Model<IdempotencyDocument>;
}
