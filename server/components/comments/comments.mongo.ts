/** Internal comments on MongoDB: the contract of the embedded repository. */
import type { Connection } from 'mongoose';
import { afterKey, KEYSET_SORT } from '../../db/keyset-filter.js';
import { queryTimeoutMs } from '../../db/query-limits.js';
import type { Comment } from './comments.model.js';
import type { CommentRepository } from './comments.repository.js';
import { commentModel, type CommentDocument } from './comments.schema.js';
import { copyPlain } from '../../../lib/copy-plain.js';

export function createMongoCommentRepository(connection: Connection): CommentRepository {
  const maxTimeMS = queryTimeoutMs(connection);
  const Comments = commentModel(connection);
  return {
    async add(comment) {
      const { id, ...rest } = comment;
      await Comments.collection.insertOne({ _id: id, ...rest } as never, { maxTimeMS });
      return copyPlain(comment);
    },
    async list(query) {
      const filter = {
        organizationId: query.organizationId,
        registrationId: query.registrationId,
        ...afterKey(query.after),
      };
      const docs = await Comments.find(filter)
        .sort(KEYSET_SORT)
        .limit(query.limit)
        .lean<(CommentDocument & { _id: string })[]>()
        .maxTimeMS(maxTimeMS);
      return docs.map(({ _id, ...rest }): Comment => ({ id: _id, ...rest }));
    },
  };
}
