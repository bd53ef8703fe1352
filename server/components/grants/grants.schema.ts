/**
 * The mongoose schemas of API-access grants. A subject's default organization is ONE document per subject
 * (`subject_defaults`), so "at most one default per subject" holds by construction without a transaction.
 */
import { Schema, type Connection, type InferSchemaType, type Model } from 'mongoose';
import { GRANT_ROLES } from './grants.model.js';

export const grantSchema = new Schema(
  {
    organizationId: { type: String, required: true, immutable: true },
    subject: { type: String, required: true, immutable: true },
    // Not required: a grant written by a build before roles (a rolling upgrade) has none and reads as `owner`.
    role: { type: String, enum: GRANT_ROLES },
    createdAt: { type: Date, required: true, immutable: true },
  },
  { collection: 'grants', strict: 'throw', strictQuery: 'throw', versionKey: false, id: false },
);
grantSchema.index({ organizationId: 1, subject: 1 }, { unique: true });
// "The organizations of this subject" (organization resolution, GET /organizations): a single-field index.
grantSchema.index({ subject: 1 });

export const subjectDefaultSchema = new Schema(
  {
    /** The subject. */
    _id: { type: String, required: true, immutable: true },
    organizationId: { type: String, required: true },
  },
  { collection: 'subject_defaults', strict: 'throw', strictQuery: 'throw', versionKey: false, id: false },
);

export type GrantDocument = InferSchemaType<typeof grantSchema>;
export type SubjectDefaultDocument = InferSchemaType<typeof subjectDefaultSchema>;

export function grantModel(connection: Connection): Model<GrantDocument> {
  return (connection.models.Grant ?? connection.model('Grant', grantSchema)) as Model<GrantDocument>;
}

export function subjectDefaultModel(connection: Connection): Model<SubjectDefaultDocument> {
  return (connection.models.SubjectDefault ??
    connection.model('SubjectDefault', subjectDefaultSchema)) as Model<SubjectDefaultDocument>;
}
