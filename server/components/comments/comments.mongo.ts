/** Internal comments on MongoDB: the contract of the embedded repository. */
import mongoose, { type Connection } from 'mongoose';
import { MAX_TIME_MS } from '../../db/query-limits.js';
import type { Comment } from './comments.model.js';
import type { CommentRepository } from './comments.repository.js';
import { commentModel, type CommentDocument } from './comments.schema.js';

export function createMongoCommentRepository(connection: Connection): CommentRepository {
  const Comments = commentModel(connection);
  return {
    async add(comment) {
      const { id, ...rest } = comment;
      await Comments.collection.insertOne({ _id: id, ...rest } as never, { maxTimeMS: MAX_TIME_MS } as never);
      return structuredClone(comment);
    },
    async list(query) {
      const filter: Record<string, unknown> = { organizationId: query.organizationId, registrationId: query.registrationId };
      if (query.after) {
        filter.$or = [{ createdAt: { $gt: query.after.createdAt } }, { createdAt: query.after.createdAt, _id: { $gt: query.after.id } }];
      }
      const docs = await Comments.find(mongoose.trusted(filter))
        .sort({ createdAt: 1, _id: 1 })
        .limit(query.limit)
        .lean<(CommentDocument & { _id: string })[]>()
        .maxTimeMS(MAX_TIME_MS);
      return docs.map(({ _id, ...rest }): Comment => ({ id: _id, ...rest }));
    },
  };
}
