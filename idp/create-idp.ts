/**
 * The programmatic API: `createIdp(options)` starts the stub IdP on `options.port` (0 in tests) and resolves
 * to `{ url, issuer, close, testing, … }` once it serves. Used by our tests and usable by anyone's.
 *
 * Clean start: the request listener is attached before the port opens, and the provider is built
 * before listening whenever the issuer is known up front; with port 0 and no issuer the first requests wait for it.
 * A database that does not answer at start leaves the IdP serving `/healthz` 200 and `/readyz` 503 until it does
 * (unless `requireDatabaseAtStart`).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type Provider from 'oidc-provider';
import { silentLogger, type Logger } from '../lib/logger.js';
import { warnOnStuck } from '../lib/mongo-monitor-watchdog.js';
import { createMemoryStore } from './adapters/memory.js';
import type { IdpStore } from './adapters/store.js';
import { healthRouter } from './health.js';
import { createIssuerInstance, type IssuerInstance } from './issuer-instance.js';
import type { IdpOptions } from './options.js';
import type { StaticClient } from './static-client.js';
import { createTestingApi, type TestingApi } from './testing/testing-api.js';
import { testingRouter } from './testing/testing-router.js';
import { debuggerRouter } from './debugger/debugger-router.js';

export interface RunningIssuer {
  issuer: string;
  discoveryUrl: string;
  client: StaticClient;
  registrationEndpoint?: string;
  /** The testing surface (DESIGN.md §3.4); present with `enableTestingApi`. */
  testing?: TestingApi;
}

export interface RunningIdp extends RunningIssuer {
  /** Where it listens, e.g. http://127.0.0.1:8484. */
  url: string;
  registrationInitialAccessToken?: string;
  provider: Provider;
  /** With `tenants`: each tenant's issuer, client and testing surface (the top-level fields are the first tenant's). */
  tenants?: Record<string, RunningIssuer>;
  /** Resolves once every issuer is built (at once unless the IdP is waiting for its database). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

const RETRY_MS = 1000;
const TENANT_NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;
const RESERVED = new Set(['healthz', 'readyz', '_testing', '_debugger', 'interaction', '.well-known']);

function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
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

function checkTenants(tenants: string[] | undefined): string[] | undefined {
  if (!tenants?.length) return undefined;
  const seen = new Set<string>();
  for (const name of tenants) {
    if (!TENANT_NAME.test(name) || RESERVED.has(name))
      throw new Error(`tenant "${name}" must be lower-case letters, digits, - or _ (and not a reserved path)`);
    if (seen.has(name)) throw new Error(`tenant "${name}" is listed twice`);
    seen.add(name);
  }
  return tenants;
}

async function openStores(options: IdpOptions, tenants: string[] | undefined, logger: Logger): Promise<IdpStore[]> {
  const count = tenants?.length ?? 1;
  if (options.store) {
    if (count > 1) throw new Error('tenants need a store each: give databaseUrl (or nothing, for memory), not a store');
    return [options.store];
  }
  if (!options.databaseUrl) return Array.from({ length: count }, () => createMemoryStore());
  // Loaded on demand: runtimes without MongoDB (the edge worker) never pull in the driver.
  const { openMongoStore } = await import('./adapters/mongo.js');
  const base = new URL(options.databaseUrl).pathname.replace(/^\//, '') || 'idp';
  const onStuckMonitor = warnOnStuck(logger);
  return tenants
    ? tenants.map((t) => openMongoStore(options.databaseUrl!, { database: `${base}_${t}`, onStuckMonitor }))
    : [openMongoStore(options.databaseUrl, { onStuckMonitor })];
}

export async function createIdp(options: IdpOptions = {}): Promise<RunningIdp> {
  const host = options.host ?? '127.0.0.1';
  const logger = options.logger ?? silentLogger;
  const tenants = checkTenants(options.tenants);
  const enableTestingApi = options.enableTestingApi ?? false;
  if (enableTestingApi && !isLoopbackHost(host) && !options.allowTestingApiOnPublicHost) {
    throw new Error(
      `--enable-testing-api lets anyone mint tokens and change the clock: refusing it on ${host}, which is not a loopback address (use --host 127.0.0.1, or add --allow-testing-api-on-public-host if that is really wanted)`,
    );
  }
  const stores = await openStores(options, tenants, logger);
  const ownsStores = !options.store;
  const closeStores = () =>
    ownsStores ? Promise.all(stores.map((s) => s.close().catch(() => undefined))) : Promise.resolve([]);

  let instances: IssuerInstance[] = [];
  const testingApis = new Map<IssuerInstance, TestingApi>();
  type Routes = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;
  const routes = new Map<IssuerInstance, Routes>();
  /** The testing API (and later the debugger) of an instance, made once, before it serves. */
  const routesFor = (instance: IssuerInstance): Routes | undefined => {
    if (!instance.testing) return undefined;
    const made = routes.get(instance);
    if (made) return made;
    const api = createTestingApi(instance, {
      accessTokenFormat: options.accessTokenFormat ?? 'opaque',
      defaultAudience: options.defaultAudience,
    });
    testingApis.set(instance, api);
    const mounted = [
      { prefix: '/_testing', app: testingRouter(api) },
      { prefix: '/_debugger', app: debuggerRouter(instance) },
    ];
    const handler: Routes = (req, res, next) => {
      const path = (req.url ?? '/').split('?')[0];
      const hit = mounted.find((m) => path === m.prefix || path.startsWith(`${m.prefix}/`));
      if (!hit) return next();
      req.url = req.url!.slice(hit.prefix.length) || '/';
      hit.app(req as never, res as never);
    };
    routes.set(instance, handler);
    return handler;
  };
  const makeInstances = (base: string) => {
    const root = base.replace(/\/$/, '');
    instances = (tenants ?? ['']).map((tenant, i) =>
      createIssuerInstance({
        options,
        issuer: tenant ? `${root}/${tenant}` : base,
        mountPath: tenant ? `/${tenant}` : '',
        store: stores[i],
        logger: tenant ? logger.child({ tenant }) : logger,
        enableTestingApi,
        routes: routesFor,
      }),
    );
    for (const instance of instances) routesFor(instance);
  };

  // Health answers at the root for the whole listener: oidc = every issuer built, db = the database answers.
  const health = express();
  health.disable('x-powered-by');
  const checks: Record<string, () => Promise<void>> = {
    oidc: async () => {
      const notReady = instances.find((i) => i.status !== 'ready');
      if (notReady) throw new Error(notReady.status === 'waiting' ? 'waiting for the database' : 'starting');
    },
  };
  if (stores[0].ping) checks.db = stores[0].ping;
  health.use(healthRouter(checks));

  /** While set, requests wait for it: port 0 without an issuer, between the port opening and the provider built. */
  let gate: Promise<void> | undefined;
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    if (gate) return void gate.then(() => route(req, res));
    route(req, res);
  };
  const route = (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    const path = url.split('?')[0];
    if (path === '/healthz' || path === '/readyz') return void health(req as never, res as never);
    let instance = instances[0];
    if (tenants) {
      const name = path.split('/')[1] ?? '';
      instance = instances[tenants.indexOf(name)];
      if (!instance) {
        res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
        return void res.end(
          JSON.stringify({
            error: 'not_found',
            error_description: `no tenant here; tenants: ${tenants.map((t) => `/${t}`).join(', ')}`,
          }),
        );
      }
      (req as IncomingMessage & { originalUrl?: string }).originalUrl = url;
      req.url = url.slice(instance.mountPath.length) || '/';
    }
    if (!instance) {
      res.writeHead(503, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      return void res.end(
        JSON.stringify({ error: 'temporarily_unavailable', error_description: 'the identity provider is stopping' }),
      );
    }
    instance.handle(req, res);
  };
  const server = createServer(listener);

  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const startAll = () => Promise.all(instances.filter((i) => i.status !== 'ready').map((i) => i.start()));

  /** Database unreachable at start: keep serving health and retry until every issuer is built. */
  const waitForDatabase = (reason: string) => {
    for (const i of instances) i.wait();
    logger.warn({ err: reason }, 'database unreachable at start; serving /readyz 503 and retrying');
    const attempt = () => {
      retry = undefined;
      if (closed) return;
      startAll().then(
        () => logger.info('database reachable; the identity provider is ready'),
        () => {
          if (!closed) retry = setTimeout(attempt, RETRY_MS);
        },
      );
    };
    retry = setTimeout(attempt, RETRY_MS);
  };

  try {
    let databaseProblem: string | undefined;
    if (options.databaseUrl && stores[0].ping) {
      try {
        await stores[0].ping();
      } catch (error) {
        databaseProblem = (error as Error).message.split('\n')[0]!;
        if (options.requireDatabaseAtStart) throw new Error(`cannot use the database: ${databaseProblem}`);
      }
    }
    const port = options.port ?? 8484;
    const knownIssuer = options.issuer ?? (port !== 0 ? `http://${hostForUrl(host)}:${port}` : undefined);
    if (knownIssuer) {
      makeInstances(knownIssuer);
      if (!databaseProblem)
        await startAll().catch(async (error) => {
          if (!options.databaseUrl || options.requireDatabaseAtStart) throw error;
          databaseProblem = (error as Error).message.split('\n')[0]!;
        });
      await listen(server, port, host);
    } else {
      let open!: () => void;
      gate = new Promise<void>((resolve) => (open = resolve));
      try {
        await listen(server, 0, host);
        makeInstances(`http://${hostForUrl(host)}:${(server.address() as AddressInfo).port}`);
        if (!databaseProblem) {
          await startAll().catch(async (error) => {
            if (!options.databaseUrl || options.requireDatabaseAtStart) throw error;
            databaseProblem = (error as Error).message.split('\n')[0]!;
          });
        }
      } finally {
        gate = undefined;
        open();
      }
    }
    if (databaseProblem) waitForDatabase(databaseProblem);
  } catch (error) {
    closed = true;
    server.close();
    await closeStores();
    throw error;
  }

  const { port } = server.address() as AddressInfo;
  const url = `http://${hostForUrl(host)}:${port}`;
  const first = instances[0];
  const notReady = (what: string) =>
    new Error(`${what} is not known yet: the identity provider is waiting for its database (see /readyz)`);
  const describe = (instance: IssuerInstance): RunningIssuer => ({
    issuer: instance.issuer,
    discoveryUrl: `${instance.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`,
    get client() {
      if (!instance.built) throw notReady('the configured client');
      return instance.built.client;
    },
    get registrationEndpoint() {
      return instance.built?.registrationEndpoint;
    },
    testing: testingApis.get(instance),
  });
  const running: RunningIdp = Object.defineProperties(describe(first) as RunningIdp, {
    url: { value: url, enumerable: true },
    registrationInitialAccessToken: {
      get: () => (first.built?.registrationEndpoint ? options.registrationInitialAccessToken : undefined),
      enumerable: true,
    },
    provider: {
      get: () => {
        if (!first.built) throw notReady('the provider');
        return first.built.provider;
      },
    },
    tenants: {
      value: tenants ? Object.fromEntries(tenants.map((t, i) => [t, describe(instances[i])])) : undefined,
      enumerable: true,
    },
    ready: {
      value: () =>
        new Promise<void>((resolve, reject) => {
          const check = () => {
            if (closed) return reject(new Error('the identity provider was closed before it was ready'));
            if (instances.every((i) => i.status === 'ready')) return resolve();
            setTimeout(check, 50);
          };
          check();
        }),
    },
    close: {
      value: async () => {
        closed = true;
        if (retry) clearTimeout(retry);
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await closeStores();
      },
    },
  });
  return running;
}
