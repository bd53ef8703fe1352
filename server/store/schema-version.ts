/**
 * The store's schema version: `db:migrate` records which version it brought the database to, and
 * the service refuses to start on a database that is unmigrated or older, because everything that rests on a unique
 * index (idempotency keys, rate-limit slots, client ids, write locks) silently weakens without its indexes.
 *
 * The record also carries a fingerprint of the index layout, so an index added to a schema without a version bump
 * still reads as "older" here instead of going unnoticed.
 */
import { createHash } from 'node:crypto';
import type { Connection } from 'mongoose';
import { STORE_COLLECTIONS } from './collections.js';
import { queryTimeoutMs } from '../db/query-limits.js';

/** Raise it with every migration change (1 was the layout before versions were recorded; 3 added create intents, 4
 * idempotency responses, 5 outbox due items in place of create intents and the `outboxAt` indexes, 6 roles on grants
 * and client secrets followed, 7 the review queue's index). */
export const SCHEMA_VERSION = 7;
export const SCHEMA_COLLECTION = 'schema_version';
const SCHEMA_ID = 'store';

interface SchemaRecord {
  _id: string;
  version: number;
  indexes: string;
  migratedAt: Date;
}

export type SchemaState =
  | { status: 'ok'; version: number }
  /** The database runs a newer migration than this build knows (a rollback): served, and said in /readyz. */
  | { status: 'newer'; version: number }
  | { status: 'unmigrated' | 'older'; version: number | null };

/** The index layout this build expects, as a short stable hash. */
function indexFingerprint(): string {
  const layout = [...STORE_COLLECTIONS].sort(([a], [b]) => a.localeCompare(b));
  return createHash('sha256').update(JSON.stringify(layout)).digest('base64url').slice(0, 16);
}

export async function recordSchemaVersion(
  connection: Connection,
  clock: () => Date = () => new Date(),
): Promise<boolean> {
  const collection = connection.db!.collection<SchemaRecord>(SCHEMA_COLLECTION);
  const current = await collection.findOne({ _id: SCHEMA_ID });
  const indexes = indexFingerprint();
  if (current && current.version === SCHEMA_VERSION && current.indexes === indexes) return false;
  await collection.replaceOne(
    { _id: SCHEMA_ID },
    { version: SCHEMA_VERSION, indexes, migratedAt: clock() },
    { upsert: true },
  );
  return true;
}

export async function readSchemaState(connection: Connection): Promise<SchemaState> {
  const record = await connection
    .db!.collection<SchemaRecord>(SCHEMA_COLLECTION)
    .findOne({ _id: SCHEMA_ID }, { maxTimeMS: queryTimeoutMs(connection) });
  if (!record) return { status: 'unmigrated', version: null };
  if (record.version > SCHEMA_VERSION) return { status: 'newer', version: record.version };
  if (record.version < SCHEMA_VERSION || record.indexes !== indexFingerprint())
    return { status: 'older', version: record.version };
  return { status: 'ok', version: record.version };
}

/** The start-up error for a state the service must not serve, or undefined. */
export function schemaProblem(state: SchemaState): string | undefined {
  if (state.status === 'unmigrated') {
    return 'the database has not been migrated: run `npm run db:migrate` with the same MONGODB_URI first (or set MIGRATE_ON_START=true)';
  }
  if (state.status === 'older') {
    return `the database schema is older than this build (found version ${state.version}, need ${SCHEMA_VERSION}${
      state.version === SCHEMA_VERSION ? ' with other indexes' : ''
    }): run \`npm run db:migrate\` with the same MONGODB_URI first (or set MIGRATE_ON_START=true)`;
  }
  return undefined;
}
