/**
 * The Mongo side of keyset pagination (keyset-page.ts): ascending (createdAt, _id), items strictly
 * after the cursor key. Backed by the `{organizationId, …, createdAt, _id}` indexes.
 */
import mongoose from 'mongoose';
import type { PageKey } from './keyset-page.js';

export const KEYSET_SORT = { createdAt: 1, _id: 1 } as const;

/** Filter members selecting the items after `after`; operators marked trusted so sanitizeFilter keeps them. */
export function afterKey(after: PageKey | undefined): Record<string, unknown> {
  if (!after) return {};
  return {
    $or: [
      { createdAt: mongoose.trusted({ $gt: after.createdAt }) },
      { createdAt: after.createdAt, _id: mongoose.trusted({ $gt: after.id }) },
    ],
  };
}
