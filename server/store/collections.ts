/** Every collection of the store with its indexes, for migrations and resets: derived from store/repositories.ts. */
import type { Schema } from 'mongoose';
import { REPOSITORIES } from './repositories.js';
import { writeLockSchema } from '../db/write-lock.schema.js';
import { RATE_LIMIT_COLLECTION } from '../components/rate-limits/rate-limits.mongo.js';

export interface IndexSpec {
  fields: Record<string, 1 | -1>;
  options: { unique?: boolean; sparse?: boolean; expireAfterSeconds?: number };
}

function indexesOf(schema: Schema): IndexSpec[] {
  return schema.indexes().map(([fields, options]) => ({
    fields: fields as Record<string, 1 | -1>,
    options: {
      ...(options.unique ? { unique: true } : {}),
      ...(options.sparse ? { sparse: true } : {}),
      ...(typeof options.expireAfterSeconds === 'number' ? { expireAfterSeconds: options.expireAfterSeconds } : {}),
    },
  }));
}

// Every repository's schemas (the one list), and the write locks every mongo repository shares.
const schemas: Schema[] = [...Object.values(REPOSITORIES).flatMap((repository) => repository.schemas), writeLockSchema];

/** Collection name → its secondary indexes. */
export const STORE_COLLECTIONS: ReadonlyMap<string, IndexSpec[]> = new Map([
  ...schemas.map((schema): [string, IndexSpec[]] => [schema.get('collection') as string, indexesOf(schema)]),
  // Rate-limit slots (their uniqueness is the `_id`): counted per key and window, expired by date.
  [
    RATE_LIMIT_COLLECTION,
    [
      { fields: { key: 1, window: 1 }, options: {} },
      { fields: { expire: 1 }, options: { expireAfterSeconds: 0 } },
    ],
  ],
]);
