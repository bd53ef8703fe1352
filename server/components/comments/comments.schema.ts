/** The mongoose schema of internal comments (`comments`). */
import { Schema, type Connection, type InferSchemaType, type Model } from 'mongoose';

export const commentSchema = new Schema(
  {
    _id: { type: String, required: true, immutable: true },
    organizationId: { type: String, required: true, immutable: true },
    registrationId: { type: String, required: true, immutable: true },
    author: { type: String, required: true, immutable: true },
    body: { type: String, required: true, immutable: true },
    createdAt: { type: Date, required: true, immutable: true },
  },
  { collection: 'comments', strict: 'throw', strictQuery: 'throw', versionKey: false, id: false },
);
commentSchema.index({ organizationId: 1, registrationId: 1, createdAt: 1, _id: 1 });

export type CommentDocument = InferSchemaType<typeof commentSchema>;

export function commentModel(connection: Connection): Model<CommentDocument> {
  return (connection.models.Comment ?? connection.model('Comment', commentSchema)) as Model<CommentDocument>;
}
