/** Internal comments: reviewers and admins annotate a registration; the registration must exist in the organization. */
import { apiError } from '../../errors.js';
import { newId } from '../../ids.js';
import type { Store } from '../../deps.js';
import { MAX_COMMENT_LENGTH, type Comment } from './comments.model.js';

type Deps = { store: Pick<Store, 'registrations' | 'comments'>; clock: () => Date };

export async function addComment(
  deps: Deps,
  input: { organizationId: string; registrationId: string; author: string; body: string },
): Promise<Comment> {
  const body = input.body.trim();
  if (body.length === 0 || body.length > MAX_COMMENT_LENGTH) {
    throw apiError('validation_failed', 'The comment is invalid.', {
      fields: [{ path: 'body', message: `must be 1 to ${MAX_COMMENT_LENGTH} characters` }],
    });
  }
  if (!(await deps.store.registrations.get(input.organizationId, input.registrationId)))
    throw apiError('not_found', 'No such registration.');
  return deps.store.comments.add({
    id: newId('cmt'),
    organizationId: input.organizationId,
    registrationId: input.registrationId,
    author: input.author,
    body,
    createdAt: deps.clock(),
  });
}

export async function listComments(
  deps: Deps,
  input: { organizationId: string; registrationId: string; limit?: number },
): Promise<Comment[]> {
  if (!(await deps.store.registrations.get(input.organizationId, input.registrationId)))
    throw apiError('not_found', 'No such registration.');
  return deps.store.comments.list({
    organizationId: input.organizationId,
    registrationId: input.registrationId,
    limit: input.limit ?? 100,
  });
}
