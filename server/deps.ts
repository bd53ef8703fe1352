/**
 * What the service's parts are built from. `createApp(deps)` receives these; nothing reads globals.
 * Each repository interface lives beside its component (`components/<resource>/<resource>.repository.ts`),
 * with an embedded (memory) and a mongoose implementation, both named in store/repositories.ts.
 */
import type { Logger } from '../lib/logger.js';
import type { ServiceConfig } from './config.js';
import type { Metrics } from './metrics/metrics.js';
import type { Repositories } from './store/repositories.js';
import type { ResolutionReads } from './store/resolution-cache.js';

/** Every repository the service uses (the one list in store/repositories.ts): the only code that touches storage. */
export interface Store extends Repositories {
  kind: 'memory' | 'mongo';
  /** What organization resolution reads on every request (cached briefly on MongoDB: store/resolution-cache.ts). */
  resolution: ResolutionReads;
  /** Resolves when the store can serve requests; rejects with the reason otherwise (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface ApiDeps {
  config: ServiceConfig;
  store: Store;
  logger: Logger;
  /** Injected so tests can move time; defaults to `() => new Date()`. */
  clock: () => Date;
  /** Prometheus metrics (METRICS_ENABLED); absent: nothing is counted. */
  metrics?: Metrics;
  /** The process's state (main.ts): once `stopping`, readiness fails and answers close their connections. */
  lifecycle?: Lifecycle;
}

export interface Lifecycle {
  stopping: boolean;
}
