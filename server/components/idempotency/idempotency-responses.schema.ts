/**
 * The responses of completed Idempotency-Key claims on MongoDB, one per claim (`_id` = the claim's `claimId`),
 * inserted when the request completes instead of updating the claim: on FerretDB 1.24 every update scans its whole
 * collection (12 ms a completion with a few dozen claims, measured; keyed creates fell to 20–30 per second). A
 * claim taken over gets a new `claimId`, so a response of an earlier holder never answers for it. Kept as long as
 * the claim: the TTL index where the server has one, the repository's sweep elsewhere.
 */
import { Schema, type Connection, type InferSchemaType, type Model } from 'mongoose';

export const idempotencyResponseSchema = new Schema(
  {
    _id: { type: String, required: true, immutable: true },
    response: { type: Schema.Types.Mixed, required: true },
    expiresAt: { type: Date, required: true },
  },
  {
    collection: 'idempotency_responses',
    strict: 'throw',
    strictQuery: 'throw',
    minimize: false,
    versionKey: false,
    id: false,
  },
);
idempotencyResponseSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });

export type IdempotencyResponseDocument = InferSchemaType<typeof idempotencyResponseSchema>;

export function idempotencyResponseModel(connection: Connection): Model<IdempotencyResponseDocument> {
  return (connection.models.IdempotencyResponse ??
    connection.model('IdempotencyResponse', idempotencyResponseSchema)) as Model<IdempotencyResponseDocument>;
}
