/** Internal comment storage: add and list (oldest first); the embedded implementation, mongo in `comments.mongo.ts`. */
import { pageOf, type PageQuery } from '../../db/keyset-page.js';
import type { Comment } from './comments.model.js';
import { copyPlain } from '../../../lib/copy-plain.js';

export interface CommentRepository {
  add(comment: Comment): Promise<Comment>;
  list(query: PageQuery & { organizationId: string; registrationId: string }): Promise<Comment[]>;
}

export function createMemoryCommentRepository(): CommentRepository {
  const comments = new Map<string, Comment>();
  return {
    async add(comment) {
      if (comments.has(comment.id)) throw new Error(`comment ${comment.id} already exists`);
      comments.set(comment.id, copyPlain(comment));
      return copyPlain(comment);
    },
    async list(query) {
      const matching = [...comments.values()].filter(
        (c) => c.organizationId === query.organizationId && c.registrationId === query.registrationId,
      );
      return pageOf(matching, query).map((c) => copyPlain(c));
    },
  };
}
