/**
 * The registration service as a process: reads settings (every problem listed), loads the seed file, serves
 * `createApp` on HOST:PORT and stops gracefully when `signal` aborts. `bin.ts` wires the real process to it;
 * tests call `main` directly with their own streams and signal.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '../lib/logger.js';
import { readCommandLine } from '../lib/settings/command-line.js';
import { renderHelp } from '../lib/settings/render-help.js';
import { settingsProblems } from '../lib/settings/settings-error.js';
import { createApp } from './app.js';
import { consoleOidcOptions } from './internal/console/console-settings.js';
import { createInternalSurface } from './internal/internal-surface.js';
import { loadServiceConfig, serviceSettings } from './config.js';
import type { ApiDeps, Store } from './deps.js';
import { applySeed } from './seed/apply-seed.js';
import { readSeedFile, SeedFileError } from './seed/read-seed-file.js';
import { createMemoryStore } from './store/memory-store.js';
import { createMongoStore, type MongoStore } from './store/mongo-store.js';
import { migrate } from './store/migrate.js';
import { readSchemaState, schemaProblem } from './store/schema-version.js';
import type { Logger } from '../lib/logger.js';

export interface MainIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

export interface MainOptions {
  /** Aborting stops the service: no new connections, in-flight requests finish, then the store closes. */
  signal?: AbortSignal;
  /** Called with the base URLs once both listeners are up (tests use it with PORT=0 and INTERNAL_PORT=0). */
  onListening?: (url: string, internalUrl: string) => void;
}

/** Exit codes: 0 stopped cleanly, 1 failed while running, 2 bad usage, settings or seed file. */
const USAGE_ERROR = 2;
/** In-flight requests get this long after a stop signal before their connections are cut. */
const DRAIN_MS = 10_000;

function helpText(): string {
  return [
    'Usage: registration-service [--seed <file>] [--help]',
    '',
    'Serves the Gatehouse registration API (/api/v1, /healthz, /readyz). Settings come from the environment.',
    '',
    renderHelp(serviceSettings.settings, { heading: 'Settings:' }),
    '',
  ].join('\n');
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function urlOf(server: Server, host: string): string {
  const { port } = server.address() as AddressInfo;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), DRAIN_MS);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/** Migrates first when asked to, then refuses an unmigrated or older database; the problem or undefined. */
async function checkSchema(store: MongoStore, migrateOnStart: boolean, logger: Logger): Promise<string | undefined> {
  try {
    if (migrateOnStart)
      logger.info({ migration: await migrate(store.connection) }, 'database migrated (MIGRATE_ON_START)');
    const state = await readSchemaState(store.connection);
    if (state.status === 'newer')
      logger.warn({ schemaVersion: state.version }, 'the database is migrated past this build');
    return schemaProblem(state);
  } catch (err) {
    return `cannot check the database schema: ${(err as Error).message}`;
  }
}

export async function main(
  argv: string[],
  env: Record<string, string | undefined>,
  io: MainIo,
  options: MainOptions = {},
): Promise<number> {
  let config;
  try {
    const { flags, help } = readCommandLine(serviceSettings.settings, argv);
    if (help) {
      io.stdout.write(helpText());
      return 0;
    }
    config = loadServiceConfig(env, flags);
  } catch (err) {
    if (!settingsProblems(err)) throw err;
    io.stderr.write(`registration-service: ${(err as Error).message} (see registration-service --help)\n`);
    return USAGE_ERROR;
  }
  const logger = createLogger({ level: config.logLevel, name: 'registration-service' });
  let store: Store;
  try {
    store = config.mongodbUri
      ? await createMongoStore(config.mongodbUri, { logger, resolutionCacheMs: config.resolutionCacheMs })
      : createMemoryStore();
  } catch (err) {
    // The URI may hold credentials: name the failure, never the URI.
    io.stderr.write(`registration-service: cannot connect to MongoDB (MONGODB_URI): ${(err as Error).message}\n`);
    return 1;
  }
  if (store.kind === 'mongo') {
    const problem = await checkSchema(store as MongoStore, config.migrateOnStart, logger);
    if (problem) {
      await store.close();
      io.stderr.write(`registration-service: ${problem}\n`);
      return 1;
    }
  }
  const deps: ApiDeps = { config, store, logger, clock: () => new Date() };

  const seedFile = config.seedFile;
  if (seedFile) {
    try {
      const summary = await applySeed(store, await readSeedFile(seedFile), deps.clock());
      logger.info({ seedFile, ...summary }, 'seed file applied');
    } catch (err) {
      await store.close();
      if (err instanceof SeedFileError) {
        io.stderr.write(`registration-service: ${err.message}\n`);
        return USAGE_ERROR;
      }
      io.stderr.write(`registration-service: cannot apply the seed file ${seedFile}: ${(err as Error).message}\n`);
      return 1;
    }
  }

  const server = createServer(createApp(deps));
  // The reviewer/admin surface: its own app on its own listener, never mounted on the public one (DESIGN.md §1.2).
  const consoleOidc = consoleOidcOptions(config);
  const internal = createInternalSurface(
    deps,
    consoleOidc ? { console: { oidc: consoleOidc, sessionTtlS: config.consoleSessionTtlS } } : {},
  );
  const internalServer = createServer(internal.app);
  try {
    await listen(server, config.port, config.host);
    await listen(internalServer, config.internalPort, config.host);
  } catch (err) {
    const { port: failedPort } = err as { port?: number };
    io.stderr.write(
      `registration-service: cannot listen on ${config.host}:${failedPort ?? config.port}: ${(err as Error).message}\n`,
    );
    await internal.stop();
    server.close();
    internalServer.close();
    await store.close();
    return 1;
  }
  const url = urlOf(server, config.host);
  const internalUrl = urlOf(internalServer, config.host);
  logger.info({ url, internalUrl, store: store.kind }, 'registration service listening');
  options.onListening?.(url, internalUrl);

  await new Promise<void>((resolve) => {
    if (!options.signal) return;
    if (options.signal.aborted) resolve();
    else options.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  logger.info('stopping: draining connections');
  await internal.stop();
  await Promise.all([closeServer(server), closeServer(internalServer)]);
  await store.close();
  logger.info('stopped');
  return 0;
}
