/**
 * The programmatic API: `createIdp(options)` resolves its options once against the IdP's settings (idp/settings.ts:
 * the same validation as the CLI, into one frozen configuration), starts the stub IdP on `port` (0 in tests) and
 * resolves to `{ url, issuer, close, testing, … }` once it serves. Used by our tests and usable by anyone's.
 *
 * Clean start: the request listener is attached before the port opens, and the provider is built before listening
 * whenever the issuer is known up front; with port 0 and no issuer the first requests wait for it. A database that
 * does not answer at start leaves the IdP serving `/healthz` 200 and `/readyz` 503 until it does (unless
 * `requireDatabaseAtStart`).
 */
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createIssuerInstance, type IssuerInstance } from './issuer-instance.js';
import { issuerStartup } from './issuer-startup.js';
import { createListener } from './listener.js';
import { openStores } from './open-stores.js';
import { personalityOf } from './personalities/registry.js';
import { runningIdp, type RunningIdp } from './running-idp.js';
import { resolveIdpConfig, type IdpConfig, type IdpOptions } from './settings.js';
import { createTestingRoutes } from './testing/testing-routes.js';
import { listenerTls } from './tls/listener-tls.js';

export type { RunningIdp, RunningIssuer } from './running-idp.js';

function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

/** An issuer's URL and path on the listener: `{root}/{tenant}`, or the form its personality gives it. */
function issuerOf(config: IdpConfig, root: string, tenant: string | undefined, base: string) {
  const personality = personalityOf(config.personality, tenant);
  if (!personality) return { issuer: tenant ? `${root}/${tenant}` : base, mountPath: tenant ? `/${tenant}` : '' };
  const mountPath = personality.issuerPath(tenant, root);
  return { issuer: `${root}${mountPath}${personality.trailingSlash ? '/' : ''}`, mountPath, personality };
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

export async function createIdp(options: IdpOptions = {}): Promise<RunningIdp> {
  const config: IdpConfig = resolveIdpConfig(options);
  const { host, port, tenants, logger } = config;
  const tls = await listenerTls(config);
  const scheme = tls ? 'https' : 'http';
  const stores = await openStores(config);
  const closeStores = () =>
    config.store ? Promise.resolve([]) : Promise.all(stores.map((s) => s.close().catch(() => undefined)));

  const testing = createTestingRoutes(config);
  let instances: IssuerInstance[] = [];
  const makeInstances = (base: string) => {
    const root = base.replace(/\/$/, '');
    instances = (tenants.length ? tenants : ['']).map((tenant, i) => {
      const { issuer, mountPath, personality } = issuerOf(config, root, tenant || undefined, base);
      return createIssuerInstance({
        config: tenant ? Object.freeze({ ...config, logger: logger.child({ tenant }) }) : config,
        issuer,
        mountPath,
        personality,
        store: stores[i],
        routes: testing.routesFor,
      });
    });
    for (const instance of instances) testing.routesFor(instance);
  };
  const listener = createListener(() => instances, stores[0]);
  const server: Server = tls ? createHttpsServer({ cert: tls.cert, key: tls.key }, listener) : createServer(listener);

  const startup = issuerStartup(config, stores[0], () => instances);

  try {
    const knownIssuer = config.issuer ?? (port !== 0 ? `${scheme}://${hostForUrl(host)}:${port}` : undefined);
    let databaseProblem: string | undefined;
    if (knownIssuer) {
      makeInstances(knownIssuer);
      databaseProblem = await startup.start();
      await listen(server, port, host);
    } else {
      let open!: () => void;
      listener.gate = new Promise<void>((resolve) => (open = resolve));
      try {
        await listen(server, 0, host);
        makeInstances(`${scheme}://${hostForUrl(host)}:${(server.address() as AddressInfo).port}`);
        databaseProblem = await startup.start();
      } finally {
        listener.gate = undefined;
        open();
      }
    }
    if (databaseProblem) startup.waitForDatabase(databaseProblem);
  } catch (error) {
    startup.stop();
    server.close();
    await closeStores();
    throw error;
  }

  return runningIdp({
    config,
    url: `${scheme}://${hostForUrl(host)}:${(server.address() as AddressInfo).port}`,
    tls: tls && { ca: tls.ca, caFile: tls.caFile },
    instances,
    testingApi: testing.apiOf,
    isClosed: () => startup.stopped,
    close: async () => {
      startup.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await closeStores();
    },
  });
}
