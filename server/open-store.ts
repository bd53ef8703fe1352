/**
 * The store `main.ts` serves from: the embedded one, or MongoDB (MONGODB_URI) checked for its schema version
 * (migrated first with MIGRATE_ON_START) and seeded (SEED_FILE). A database that does not answer at start does not
 * stop the service (docs/architecture.md §1.10): it starts not ready on a deferred store (server/store/deferred-store.ts) that
 * opens, checks and seeds the database once it answers — unless REQUIRE_DATABASE_AT_START, which exits naming the
 * host and the cause. Never the URI itself: it may hold credentials.
 */
import { describeChain, errorChain } from '../lib/error-chain.js';
import type { Logger } from '../lib/logger.js';
import type { ServiceConfig } from './config.js';
import type { Store } from './deps.js';
import { applySeed } from './seed/apply-seed.js';
import type { SeedData } from './seed/read-seed-file.js';
import { createDeferredStore } from './store/deferred-store.js';
import { createMemoryStore } from './store/memory-store.js';
import { migrate } from './store/migrate.js';
import { createMongoStore, type MongoStore } from './store/mongo-store.js';
import { readSchemaState, schemaProblem } from './store/schema-version.js';

/** How often a database that did not answer at start is tried again. */
const RETRY_MS = 2000;

export type OpenedStore = { store: Store } | { exit: number; message: string };

/** The hosts of a MongoDB connection string (`host:port,…`), without credentials, options or database. */
function mongoHosts(uri: string): string {
  const authority = uri.replace(/^mongodb(\+srv)?:\/\//, '').split(/[/?]/)[0];
  return authority.slice(authority.lastIndexOf('@') + 1) || '(no host)';
}

/** Migrates first when asked to, then refuses an unmigrated or older database: the problem, or undefined. */
async function schemaCheck(store: MongoStore, config: ServiceConfig, logger: Logger): Promise<string | undefined> {
  try {
    if (config.migrateOnStart)
      logger.info({ migration: await migrate(store.connection) }, 'database migrated (MIGRATE_ON_START)');
    const state = await readSchemaState(store.connection);
    if (state.status === 'newer')
      logger.warn({ schemaVersion: state.version }, 'the database is migrated past this build');
    return schemaProblem(state);
  } catch (err) {
    return `cannot check the database schema: ${(err as Error).message}`;
  }
}

async function seed(store: Store, data: SeedData | undefined, file: string | undefined, logger: Logger) {
  if (!data) return;
  const summary = await applySeed(store, data, new Date());
  logger.info({ seedFile: file, ...summary }, 'seed file applied');
}

export async function openStore(
  config: ServiceConfig,
  logger: Logger,
  seedData?: { data: SeedData; file: string },
): Promise<OpenedStore> {
  const applySeedTo = async (store: Store): Promise<OpenedStore | undefined> => {
    try {
      await seed(store, seedData?.data, seedData?.file, logger);
      return undefined;
    } catch (err) {
      await store.close();
      return { exit: 1, message: `cannot apply the seed file ${seedData?.file}: ${(err as Error).message}` };
    }
  };
  if (!config.mongodbUri) {
    const store = createMemoryStore();
    return (await applySeedTo(store)) ?? { store };
  }
  const uri = config.mongodbUri;
  const host = mongoHosts(uri);
  const open = () =>
    createMongoStore(uri, {
      logger,
      resolutionCacheMs: config.resolutionCacheMs,
      queryTimeoutMs: config.dbQueryTimeoutMs,
    });
  let store: MongoStore;
  try {
    store = await open();
  } catch (err) {
    // The 503 the store answers wraps the driver's error: that cause is what the operator needs.
    const cause = (err as { cause?: unknown }).cause ?? err;
    if (config.requireDatabaseAtStart)
      return { exit: 1, message: `cannot connect to MongoDB at ${host} (MONGODB_URI): ${describeChain(cause)}` };
    logger.warn(
      { host, cause: errorChain(cause) },
      `MongoDB at ${host} does not answer (${describeChain(cause)}): starting not ready, trying again every ${RETRY_MS} ms`,
    );
    const deferred = createDeferredStore({
      open,
      async whenOpen(opened) {
        const problem = await schemaCheck(opened, config, logger);
        if (problem) throw new Error(problem);
        await seed(opened, seedData?.data, seedData?.file, logger);
      },
      retryMs: RETRY_MS,
      host,
      logger,
    });
    return { store: deferred };
  }
  const problem = await schemaCheck(store, config, logger);
  if (problem) {
    await store.close();
    return { exit: 1, message: problem };
  }
  return (await applySeedTo(store)) ?? { store };
}
