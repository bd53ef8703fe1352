/**
 * The registration service as a process: reads settings (every problem listed), loads the seed file, serves
 * `createApp` on HOST:PORT and stops gracefully when `signal` aborts. `bin.ts` wires the real process to it;
 * tests call `main` directly with their own streams and signal.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DestinationStream } from 'pino';
import { createLogger } from '../lib/logger.js';
import { readCommandLine } from '../lib/settings/command-line.js';
import { renderHelp } from '../lib/settings/render-help.js';
import { settingsProblems } from '../lib/settings/settings-error.js';
import { createApp } from './app.js';
import { consoleOidcOptions } from './internal/console/console-settings.js';
import { createInternalSurface } from './internal/internal-surface.js';
import { loadServiceConfig, serviceSettings } from './config.js';
import type { ApiDeps, Lifecycle } from './deps.js';
import { createMetrics } from './metrics/metrics.js';
import { openStore } from './open-store.js';
import { readSeedFile, SeedFileError, type SeedData } from './seed/read-seed-file.js';
import { instrumentStore } from './store/instrumented-store.js';

export interface MainIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

export interface MainOptions {
  /** Aborting stops the service: no new connections, in-flight requests finish, then the store closes. */
  signal?: AbortSignal;
  /** Called with the base URLs once both listeners are up (tests use it with PORT=0 and INTERNAL_PORT=0). */
  onListening?: (url: string, internalUrl: string) => void;
  /** Where log lines go instead of stdout (tests read them). */
  logDestination?: DestinationStream;
}

/** Exit codes: 0 stopped cleanly, 1 failed while running, 2 bad usage, settings or seed file. */
const USAGE_ERROR = 2;

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

/**
 * Stops accepting connections and closes each one once its requests are answered (idle ones at once; answers carry
 * `Connection: close` meanwhile); whatever is still open after `graceMs` is cut.
 */
function closeServer(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), graceMs);
    force.unref();
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    idle.unref();
    server.close(() => {
      clearTimeout(force);
      clearInterval(idle);
      resolve();
    });
    server.closeIdleConnections();
  });
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
  const logger = createLogger({ level: config.logLevel, name: 'registration-service' }, options.logDestination);
  const seedFile = config.seedFile;
  let seedData: SeedData | undefined;
  if (seedFile) {
    try {
      seedData = await readSeedFile(seedFile);
    } catch (err) {
      if (!(err instanceof SeedFileError)) throw err;
      io.stderr.write(`registration-service: ${err.message}\n`);
      return USAGE_ERROR;
    }
  }
  const opened = await openStore(config, logger, seedData && seedFile ? { data: seedData, file: seedFile } : undefined);
  if ('exit' in opened) {
    io.stderr.write(`registration-service: ${opened.message}\n`);
    return opened.exit;
  }
  const metrics = config.metricsEnabled ? createMetrics() : undefined;
  const store = metrics ? instrumentStore(opened.store, metrics) : opened.store;
  const lifecycle: Lifecycle = { stopping: false };
  const deps: ApiDeps = { config, store, logger, clock: () => new Date(), metrics, lifecycle };

  const server = createServer(createApp(deps));
  // The reviewer/admin surface: its own app on its own listener, never mounted on the public one (docs/architecture.md §1.2).
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
  // Not ready from now on; no new connection; requests in flight get SHUTDOWN_GRACE_MS; then the periodic work
  // (outbox drain, provisioning worker) stops and the store closes.
  lifecycle.stopping = true;
  logger.info({ graceMs: config.shutdownGraceMs }, 'stopping: not ready, finishing the requests in flight');
  await Promise.all([closeServer(server, config.shutdownGraceMs), closeServer(internalServer, config.shutdownGraceMs)]);
  await internal.stop();
  await store.close();
  logger.info('stopped');
  return 0;
}
