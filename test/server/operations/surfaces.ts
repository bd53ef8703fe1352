/**
 * Both listeners of the service over one store, as main.ts builds them — the public app and the internal app
 * with their own authentication and readiness — with every log line kept (debug level) for the tests of issue 26.
 */
import { createServer, type Server } from 'node:http';
import { Writable } from 'node:stream';
import supertest from 'supertest';
import { createLogger } from '../../../lib/logger.js';
import { createApp } from '../../../server/app.js';
import { loadServiceConfig } from '../../../server/config.js';
import type { ApiDeps, Store } from '../../../server/deps.js';
import { createInternalApp } from '../../../server/internal/app.js';
import { createMetrics } from '../../../server/metrics/metrics.js';
import { instrumentStore } from '../../../server/store/instrumented-store.js';
import { createMemoryStore } from '../../../server/store/memory-store.js';

export const PUBLIC_AUDIENCE = 'https://registrations.example/api/v1';
export const INTERNAL_AUDIENCE = 'https://registrations.example/internal';

export interface Surfaces {
  deps: ApiDeps;
  public: ReturnType<typeof supertest>;
  internal: ReturnType<typeof supertest>;
  /** Every log line so far, parsed. */
  lines(): Record<string, unknown>[];
  close(): Promise<void>;
}

async function listening(app: Parameters<typeof createServer>[1]): Promise<Server> {
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

export async function startSurfaces(
  env: Record<string, string>,
  options: { store?: Store; metrics?: boolean } = {},
): Promise<Surfaces> {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const config = loadServiceConfig({
    API_AUTH_AUDIENCE: PUBLIC_AUDIENCE,
    INTERNAL_AUTH_AUDIENCE: INTERNAL_AUDIENCE,
    ...env,
    LOG_LEVEL: 'debug',
  });
  const metrics = options.metrics ? createMetrics() : undefined;
  const store = options.store ?? createMemoryStore();
  const deps: ApiDeps = {
    config,
    // As main.ts wires them.
    store: metrics ? instrumentStore(store, metrics) : store,
    logger: createLogger({ level: 'debug', name: 'registration-service' }, sink),
    clock: () => new Date(),
    ...(metrics && { metrics }),
  };
  const servers = [await listening(createApp(deps)), await listening(createInternalApp(deps))];
  return {
    deps,
    public: supertest(servers[0]),
    internal: supertest(servers[1]),
    lines: () => [...lines],
    async close() {
      for (const server of servers) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
      await deps.store.close();
    },
  };
}
