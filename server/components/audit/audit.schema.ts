/** The mongoose schema of the audit log (`audit_log`): every field immutable, the collection is append-only. */
import { Schema, type Connection, type InferSchemaType, type Model } from 'mongoose';

export const auditSchema = new Schema(
  {
    _id: { type: String, required: true, immutable: true },
    organizationId: { type: String, required: true, immutable: true },
    targetType: { type: String, required: true, immutable: true },
    targetId: { type: String, required: true, immutable: true },
    registrationId: { type: String, immutable: true },
    action: { type: String, required: true, immutable: true },
    actor: { type: String, required: true, immutable: true },
    at: { type: Date, required: true, immutable: true },
    from: { type: String, immutable: true },
    to: { type: String, immutable: true },
    revision: { type: Number, immutable: true },
    reason: { type: String, immutable: true },
  },
  { collection: 'audit_log', strict: 'throw', strictQuery: 'throw', versionKey: false, id: false },
);
// One organization's history, oldest first; one registration's (and its change sets') history.
auditSchema.index({ organizationId: 1, at: 1, _id: 1 });
auditSchema.index({ organizationId: 1, registrationId: 1, at: 1 });
auditSchema.index({ organizationId: 1, targetId: 1, at: 1 });
auditSchema.index({ at: 1, _id: 1 });

export type AuditDocument = InferSchemaType<typeof auditSchema>;

export function auditModel(connection: Connection): Model<AuditDocument> {
  return (connection.models.AuditEntry ?? connection.model('AuditEntry', auditSchema)) as Model<AuditDocument>;
}
