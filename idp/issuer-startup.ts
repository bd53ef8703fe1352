/**
 * Building the issuers at start, and waiting for a database that does not answer: the IdP then serves `/healthz`
 * 200 and `/readyz` 503, retries every second, and becomes ready by itself (`requireDatabaseAtStart` fails instead).
 */
import type { IdpStore } from './adapters/store.js';
import { idpError } from './errors.js';
import type { IssuerInstance } from './issuer-instance.js';
import type { IdpConfig } from './settings.js';

const RETRY_MS = 1000;

const firstLine = (error: unknown) => (error as Error).message.split('\n')[0];

export interface IssuerStartup {
  /** Builds every issuer; resolves to why the database cannot be used yet, or undefined when all are built. */
  start(): Promise<string | undefined>;
  /** Serves 503 and retries until every issuer is built. */
  waitForDatabase(reason: string): void;
  /** Stops retrying (the IdP is closing). */
  stop(): void;
  readonly stopped: boolean;
}

export function issuerStartup(
  config: IdpConfig,
  store: IdpStore,
  instances: () => readonly IssuerInstance[],
): IssuerStartup {
  const { logger } = config;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const startAll = () =>
    Promise.all(
      instances()
        .filter((i) => i.status !== 'ready')
        .map((i) => i.start()),
    );
  return {
    async start() {
      if (config.databaseUrl && store.ping) {
        try {
          await store.ping();
        } catch (error) {
          if (config.requireDatabaseAtStart)
            throw idpError('database_unavailable', `cannot use the database: ${firstLine(error)}`, { cause: error });
          return firstLine(error);
        }
      }
      return startAll().then(
        () => undefined,
        (error: unknown) => {
          if (!config.databaseUrl || config.requireDatabaseAtStart) throw error;
          return firstLine(error);
        },
      );
    },
    waitForDatabase(reason) {
      for (const i of instances()) i.wait();
      logger.warn({ err: reason }, 'database unreachable at start; serving /readyz 503 and retrying');
      const attempt = () => {
        retry = undefined;
        if (stopped) return;
        startAll().then(
          () => logger.info('database reachable; the identity provider is ready'),
          () => {
            if (!stopped) retry = setTimeout(attempt, RETRY_MS);
          },
        );
      };
      retry = setTimeout(attempt, RETRY_MS);
    },
    stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
    },
    get stopped() {
      return stopped;
    },
  };
}
