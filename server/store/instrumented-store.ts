/**
 * The store as the metrics see it (applied by main.ts when METRICS_ENABLED): every repository operation timed
 * into `store_operation_duration_seconds` (by repository and method), failures included — `ping` and `close` left
 * alone — and the outbox backlog of both record kinds read from it when the metrics are scraped.
 */
import type { Store } from '../deps.js';
import type { Metrics } from '../metrics/metrics.js';
import { REPOSITORIES, type RepositoryName } from './repositories.js';

/** `repository` with each method timed (found when called: a deferred store's repositories have no own methods). */
function timed<T extends object>(repository: T, name: string, metrics: Metrics): T {
  const wrappers = new Map<string, unknown>();
  return new Proxy(repository, {
    get(target, key, receiver) {
      const member: unknown = Reflect.get(target, key, receiver);
      if (typeof key !== 'string' || typeof member !== 'function') return member;
      let wrapper = wrappers.get(key);
      if (!wrapper) {
        wrapper = async (...args: unknown[]) => {
          const started = performance.now();
          try {
            return await (member as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          } finally {
            metrics.storeOperation(name, key, (performance.now() - started) / 1000);
          }
        };
        wrappers.set(key, wrapper);
      }
      return wrapper;
    },
  });
}

/** The store timed, with the outbox backlog watched. */
export function instrumentStore<S extends Store>(store: S, metrics: Metrics): S {
  metrics.watchOutbox(async () => {
    const parts = await Promise.all([store.registrations.outboxBacklog(), store.changeSets.outboxBacklog()]);
    const oldest = parts
      .map((part) => part.oldest)
      .filter((at) => at !== undefined)
      .sort((a, b) => a.getTime() - b.getTime())[0];
    return { count: parts[0].count + parts[1].count, ...(oldest && { oldest }) };
  });
  return timedStore(store, metrics);
}

function timedStore<S extends Store>(store: S, metrics: Metrics): S {
  const instrumented: Record<string, unknown> = {};
  for (const name of Object.keys(REPOSITORIES) as RepositoryName[])
    instrumented[name] = timed(store[name], name, metrics);
  instrumented.resolution = timed(store.resolution, 'resolution', metrics);
  // The other members (kind, ping, close, a mongo store's connection) stay the store's own.
  return new Proxy(store, {
    get: (target, key, receiver) =>
      typeof key === 'string' && key in instrumented ? instrumented[key] : Reflect.get(target, key, receiver),
  });
}
