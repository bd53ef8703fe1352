/**
 * The service's Prometheus metrics (docs/architecture.md §1.10; prom-client, one registry per service instance): requests by
 * route template, method and status with their durations; token refusals by rule; store operation durations;
 * the outbox backlog and its oldest age (read from the store when scraped); provisioning failures; rate-limit
 * refusals; and the process's own metrics. Served as `GET /metrics` on the internal listener (METRICS_ENABLED).
 * Label values come from bounded sets only — route templates, rule names, repository and method names — never an
 * id, a subject or a token.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Request durations: from a cached read (~1 ms) to the query limit (5 s) and past it. */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Store operations: in-process (µs) to a database round trip cut off at the query limit. */
const STORE_BUCKETS = [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5];

interface OutboxBacklog {
  /** Records with outbox events not delivered yet. */
  count: number;
  /** Since when the oldest of them waits; absent with none. */
  oldest?: Date;
}

export interface Metrics {
  registry: Registry;
  request(route: string, method: string, status: number, seconds: number): void;
  tokenRefused(rule: string): void;
  storeOperation(repository: string, operation: string, seconds: number): void;
  /** A provisioning step failed: retried later (`final` false) or given up (`final` true). */
  provisioningFailed(kind: string, final: boolean): void;
  rateLimited(plan: string): void;
  /** The outbox backlog, read when the metrics are scraped. */
  watchOutbox(read: () => Promise<OutboxBacklog>): void;
}

export function createMetrics(options: { now?: () => number } = {}): Metrics {
  const now = options.now ?? Date.now;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by route template, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from a request to its answer, by route template, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: REQUEST_BUCKETS,
    registers: [registry],
  });
  const refusals = new Counter({
    name: 'auth_token_refusals_total',
    help: 'Access tokens refused (401) or not checkable (503), by the rule that decided.',
    labelNames: ['rule'] as const,
    registers: [registry],
  });
  const storeOperations = new Histogram({
    name: 'store_operation_duration_seconds',
    help: 'Duration of store operations, by repository and operation.',
    labelNames: ['repository', 'operation'] as const,
    buckets: STORE_BUCKETS,
    registers: [registry],
  });
  const provisioningFailures = new Counter({
    name: 'provisioning_failures_total',
    help: 'Provisioning steps that failed at the authorization server, by step kind and whether they are given up.',
    labelNames: ['kind', 'final'] as const,
    registers: [registry],
  });
  const rateLimitRefusals = new Counter({
    name: 'rate_limit_refusals_total',
    help: 'Requests refused with 429 by the rate limit, by plan.',
    labelNames: ['plan'] as const,
    registers: [registry],
  });
  let readOutbox: (() => Promise<OutboxBacklog>) | undefined;
  let backlog: Promise<OutboxBacklog> | undefined;
  /** One read of the store per scrape serves both gauges. */
  const currentBacklog = () => {
    if (!readOutbox) return Promise.resolve<OutboxBacklog>({ count: 0 });
    backlog ??= readOutbox().finally(() => setTimeout(() => (backlog = undefined), 100).unref());
    return backlog;
  };
  new Gauge({
    name: 'outbox_backlog',
    help: 'Records whose outbox holds events (audit entries, provisioning steps) not delivered yet.',
    registers: [registry],
    async collect() {
      this.set((await currentBacklog()).count);
    },
  });
  new Gauge({
    name: 'outbox_oldest_age_seconds',
    help: 'How long the oldest undelivered outbox has waited (0 with none).',
    registers: [registry],
    async collect() {
      const { oldest } = await currentBacklog();
      this.set(oldest ? Math.max(0, (now() - oldest.getTime()) / 1000) : 0);
    },
  });

  return {
    registry,
    request(route, method, status, seconds) {
      const labels = { route, method, status: String(status) };
      requests.inc(labels);
      durations.observe(labels, seconds);
    },
    tokenRefused: (rule) => refusals.inc({ rule }),
    storeOperation: (repository, operation, seconds) => storeOperations.observe({ repository, operation }, seconds),
    provisioningFailed: (kind, final) => provisioningFailures.inc({ kind, final: String(final) }),
    rateLimited: (plan) => rateLimitRefusals.inc({ plan }),
    watchOutbox(read) {
      readOutbox = read;
    },
  };
}
