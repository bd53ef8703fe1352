/**
 * A store for a database that did not answer at start (docs/architecture.md §1.10): the service starts anyway, every
 * operation answers 503 `unavailable` and readiness says why, while the connection is tried again in the
 * background; once it opens — and `whenOpen` (the schema check, the seed file) has run — every call goes to the
 * real store and the instance becomes ready by itself. An orchestrator that starts the service before its
 * database gets an instance that waits, not one that exits (REQUIRE_DATABASE_AT_START=true keeps the exit).
 */
import { apiError } from '../errors.js';
import type { Store } from '../deps.js';
import type { Logger } from '../../lib/logger.js';
import { describeChain, errorChain } from '../../lib/error-chain.js';
import { REPOSITORIES, type RepositoryName } from './repositories.js';
import type { MongoStore } from './mongo-store.js';

export interface DeferredStoreOptions {
  /** Opens the real store; rejects while the database does not answer. */
  open(): Promise<MongoStore>;
  /** Runs once the store is open, before any call reaches it (the schema check): a rejection closes it, and it is tried again. */
  whenOpen?(store: MongoStore): Promise<void>;
  /** Pause between attempts. */
  retryMs: number;
  /** Where the database is (host:port list, no credentials), for the log. */
  host: string;
  logger: Logger;
}

export interface DeferredStore extends Store {
  /** Resolves with the real store once it is open and checked (tests wait on it). */
  opened: Promise<MongoStore>;
  readonly connection: MongoStore['connection'];
}

/** The answer of every operation until the store is open: the reason, no driver text (the log has that). */
function notYet(): never {
  throw apiError('unavailable', 'The database has not answered since the service started; retry shortly.', {
    headers: { 'Retry-After': '2' },
  });
}

export function createDeferredStore(options: DeferredStoreOptions): DeferredStore {
  let current: MongoStore | undefined;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let attempts = 0;
  let resolveOpened: (store: MongoStore) => void = () => undefined;
  const opened = new Promise<MongoStore>((resolve) => (resolveOpened = resolve));

  async function attempt(): Promise<void> {
    if (closed) return;
    attempts += 1;
    let store: MongoStore | undefined;
    try {
      store = await options.open();
      await options.whenOpen?.(store);
      if (closed) {
        await store.close();
        return;
      }
      current = store;
      options.logger.info({ host: options.host, attempts }, 'database answered: the store is open');
      resolveOpened(store);
    } catch (error) {
      await store?.close().catch(() => undefined);
      // Once, then every tenth attempt: the log says why without a line every few seconds.
      if (attempts === 1 || attempts % 10 === 0)
        options.logger.warn(
          { host: options.host, attempts, cause: errorChain(error) },
          `database still unreachable (${describeChain(error)}); trying again every ${options.retryMs} ms`,
        );
      if (!closed) timer = setTimeout(() => void attempt(), options.retryMs);
    }
  }
  timer = setTimeout(() => void attempt(), options.retryMs);

  /** A repository whose every method goes to the real store's, or answers 503 until there is one. */
  function deferred(name: RepositoryName): unknown {
    return new Proxy(
      {},
      {
        get(_target, method: string) {
          return async (...args: unknown[]) => {
            if (!current) notYet();
            const repository = current[name] as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
            return repository[method](...args);
          };
        },
      },
    );
  }

  const repositories = Object.fromEntries(
    (Object.keys(REPOSITORIES) as RepositoryName[]).map((name) => [name, deferred(name)]),
  ) as unknown as Omit<Store, 'kind' | 'resolution' | 'ping' | 'close'>;

  return {
    kind: 'mongo',
    ...repositories,
    resolution: {
      async grant(subject, organizationId) {
        if (!current) notYet();
        return current.resolution.grant(subject, organizationId);
      },
      async defaultGrant(subject) {
        if (!current) notYet();
        return current.resolution.defaultGrant(subject);
      },
      async organization(id) {
        if (!current) notYet();
        return current.resolution.organization(id);
      },
    },
    opened,
    /** The open store's connection (the readiness schema check); 503 before. */
    get connection() {
      if (!current) notYet();
      return current.connection;
    },
    async ping() {
      if (!current) notYet();
      await current.ping();
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await current?.close();
    },
  };
}
