/**
 * One registration service for a test file: a local authorization server (test-auth), the embedded store,
 * `createApp` listening on 127.0.0.1 port 0, a supertest agent bound to it, and helpers for tokens and
 * organizations. `close()` releases everything it started.
 */
import { createServer, type Server } from 'node:http';
import supertest from 'supertest';
import type { DestinationStream } from 'pino';
import { createLogger } from '../../lib/logger.js';
import { createApp } from '../../server/app.js';
import type { Organization, Plan } from '../../server/components/organizations/organizations.model.js';
import { loadServiceConfig } from '../../server/config.js';
import type { ApiDeps, Store } from '../../server/deps.js';
import { createMemoryStore } from '../../server/store/memory-store.js';
import { createMongoStore } from '../../server/store/mongo-store.js';
import { startTestAuth, type TestAuth } from './test-auth.js';

export interface ServiceHarness {
  app: ReturnType<typeof createApp>;
  deps: ApiDeps;
  auth: TestAuth;
  /** Bound to the listening server: `h.request.get('/api/v1/organizations').set('Authorization', …)`. */
  request: ReturnType<typeof supertest>;
  /** An RS256 `at+jwt` token for subject `alice` with every API scope; `claims` override (undefined removes). */
  token(claims?: Record<string, unknown>): Promise<string>;
  /** A new organization (default plan `pro`) with an API-access grant for `subject` (default `alice`). */
  createOrganization(
    plan?: Plan,
    options?: { subject?: string; isDefault?: boolean; name?: string },
  ): Promise<Organization>;
  close(): Promise<void>;
}

export interface ServiceHarnessOptions {
  /** Service settings merged over the test-auth ones (e.g. `{ API_DEFAULT_ORGANIZATION_ENABLED: 'true' }`). */
  env?: Record<string, string>;
  /** Replaces the embedded store (e.g. one whose `ping` fails). */
  store?: Store;
  /** Where the service's log lines go (pino's JSON lines) instead of stdout, at the configured LOG_LEVEL. */
  logDestination?: DestinationStream;
}

/**
 * The embedded store, or — when the suite runs with MONGODB_URI (CI, against FerretDB) — the mongo store on that
 * database, migrated and emptied, so the whole API suite proves both stores (one harness is alive at a time).
 */
async function defaultStore(): Promise<Store> {
  if (!process.env.MONGODB_URI) return createMemoryStore();
  const store = await createMongoStore(process.env.MONGODB_URI);
  await store.reset();
  return store;
}

export async function startService(options: ServiceHarnessOptions = {}): Promise<ServiceHarness> {
  const auth = await startTestAuth();
  const config = loadServiceConfig(auth.env(options.env));
  const store = options.store ?? (await defaultStore());
  const deps: ApiDeps = {
    config,
    store,
    logger: createLogger({ level: config.logLevel, name: 'registration-service' }, options.logDestination),
    clock: () => new Date(),
  };
  const app = createApp(deps);
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  let organizations = 0;

  return {
    app,
    deps,
    auth,
    request: supertest(server),
    token: (claims) => auth.token(claims),
    async createOrganization(plan = 'pro', { subject = 'alice', isDefault = false, name } = {}) {
      organizations += 1;
      const org = await store.organizations.create({ name: name ?? `Test organization ${organizations}`, plan });
      await store.grants.grant({ organizationId: org.id, subject, isDefault });
      return org;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await auth.close();
      await store.close();
    },
  };
}
