/**
 * The MongoDB store (MONGODB_URI set): every repository on one mongoose connection, shared by every instance of
 * the service. An unreachable database surfaces as 503 `unavailable` with Retry-After from every repository and
 * from `ping()` (readiness), within `serverSelectionTimeoutMS`; the driver reconnects by itself when it returns.
 * Indexes come from `npm run db:migrate`, never from this factory.
 */
import mongoose, { type Connection } from 'mongoose';
import type { Logger } from '../../lib/logger.js';
import { warnOnStuck } from '../../lib/mongo-monitor-watchdog.js';
import type { Store } from '../deps.js';
import { connectMongo, type MongoConnectOptions } from '../db/connect.js';
import { databaseUnavailable, guardRepository, rethrowDatabaseError } from '../db/database-errors.js';
import { STORE_COLLECTIONS } from './collections.js';
import { migrate } from './migrate.js';
import { createWriteLocks } from '../db/write-locks.js';
import { buildRepositories } from './repositories.js';
import { directResolutionReads, withResolutionCache } from './resolution-cache.js';

export interface MongoStoreOptions extends MongoConnectOptions {
  /** Clock for the timestamps the store sets itself (organization and grant `createdAt`). */
  clock?: () => Date;
  /** Receives the connection's `disconnected` / `reconnected` / `error` events (docs/architecture.md §R.9). */
  logger?: Logger;
  /**
   * How long organization resolution may reuse a grant or organization it read (API_RESOLUTION_CACHE_MS; 0 or
   * unset: never). This instance's own writes clear it; see store/resolution-cache.ts for why the bound is safe.
   */
  resolutionCacheMs?: number;
}

export interface MongoStore extends Store {
  kind: 'mongo';
  connection: Connection;
  /** Tests only: empties every collection of the store and makes sure the migration has run on this database. */
  reset(): Promise<void>;
}

const PING_TIMEOUT_MS = 2000;
/** Databases this process has migrated (reset() migrates once per database, not before every test). */
const migrated = new Set<string>();

export async function createMongoStore(uri: string, options: MongoStoreOptions = {}): Promise<MongoStore> {
  let connection: Connection;
  try {
    connection = await connectMongo(uri, {
      ...options,
      onStuckMonitor: options.logger && warnOnStuck(options.logger),
    });
  } catch (error) {
    rethrowDatabaseError(error);
  }
  const clock = options.clock ?? (() => new Date());
  const { logger } = options;
  // Driver messages go to the log only (never to clients); the URI is not logged, it may hold credentials. An
  // 'error' listener is always attached: an unheard 'error' event would crash the process.
  connection.on('error', (err: unknown) => logger?.error({ store: 'mongo', err }, 'database connection error'));
  if (logger) {
    connection.on('disconnected', () => logger.warn({ store: 'mongo' }, 'database disconnected'));
    connection.on('reconnected', () => logger.info({ store: 'mongo' }, 'database reconnected'));
  }
  const locks = createWriteLocks(connection);
  const repositories = buildRepositories((definition) =>
    guardRepository(definition.mongo({ connection, locks, clock })),
  );
  const cache = options.resolutionCacheMs
    ? withResolutionCache(repositories, { ttlMs: options.resolutionCacheMs })
    : undefined;

  return {
    kind: 'mongo',
    connection,
    ...repositories,
    ...(cache && { grants: cache.grants, organizations: cache.organizations }),
    resolution: cache?.reads ?? directResolutionReads(repositories),

    async ping() {
      const { uninitialized, disconnecting } = mongoose.ConnectionStates;
      if (connection.readyState === uninitialized || connection.readyState === disconnecting)
        throw databaseUnavailable(new Error('the store is closed'));
      try {
        await connection.db!.command({ ping: 1 }, { timeoutMS: PING_TIMEOUT_MS });
      } catch (error) {
        throw databaseUnavailable(error);
      }
    },

    async close() {
      await connection.close();
    },

    async reset() {
      cache?.clear();
      const key = `${connection.host}:${connection.port}/${connection.name}`;
      if (!migrated.has(key)) {
        await migrate(connection);
        migrated.add(key);
      }
      for (const collection of STORE_COLLECTIONS.keys()) await connection.db!.collection(collection).deleteMany({});
    },
  };
}
