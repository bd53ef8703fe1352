/**
 * One issuer on the listener (the IdP, or one tenant of `--tenants`): its provider, built once it can be (the
 * database may come later), rebuilt when the testing API rotates keys or introduces claims; its request log,
 * cached discovery and JWKS, and — when enabled — its testing state. `handle` is a stable request listener
 * whatever is rebuilt behind it.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEBUGGER_CALLBACK } from './debugger/debugger-callback.js';
import { createAccountDirectory, type AccountDirectory } from './accounts.js';
import type { IdpStore } from './adapters/store.js';
import { buildIdp, type BuiltIdp } from './app.js';
import { captureResponse, createDocumentCache, sendCached, type DocumentCache } from './document-cache.js';
import { honestDiscovery } from './honest-discovery.js';
import type { PrivateJwks } from './keys.js';
import type { Personality } from './personalities/personality.js';
import { ROUTES } from './provider.js';
import { PROTECTED_RESOURCE_PREFIX, protectedResourceRoutes } from './protected-resource.js';
import { createRequestLog, type RequestRecord } from './request-log.js';
import type { IdpConfig } from './settings.js';
import { resolveSigningKeys } from './signing-keys.js';
import { withClock } from './testing/clock.js';
import { createTestingState, type TestingState } from './testing/testing-state.js';

type InstanceStatus = 'starting' | 'waiting' | 'ready';

export interface IssuerInstance {
  readonly issuer: string;
  /** '' or '/tenant'. */
  readonly mountPath: string;
  readonly status: InstanceStatus;
  readonly store: IdpStore;
  readonly accounts: AccountDirectory;
  /** The built provider; undefined until ready. */
  readonly built: BuiltIdp | undefined;
  /** The testing state; undefined unless the testing API is on. */
  readonly testing: TestingState | undefined;
  readonly cache: DocumentCache;
  /** Builds the provider (keys and client from the store); rejects when the store cannot answer. */
  start(): Promise<void>;
  /** Marks the instance as waiting for its database (requests get 503 until start succeeds). */
  wait(): void;
  /** Rebuilds the provider with these keys (persisted to the store when it can). */
  rebuild(jwks?: PrivateJwks): Promise<void>;
  /** The keys the instance started with (the testing API's reset goes back to them). */
  readonly startJwks: PrivateJwks | undefined;
  handle(req: IncomingMessage, res: ServerResponse): void;
}

export interface InstanceSetup {
  config: IdpConfig;
  issuer: string;
  mountPath: string;
  /** The provider this issuer imitates (`--personality`), if any. */
  personality?: Personality;
  store: IdpStore;
  /** Extra routes under the instance (the testing router, the debugger), given the instance. */
  routes?: (
    instance: IssuerInstance,
  ) => ((req: IncomingMessage, res: ServerResponse, next: () => void) => void) | undefined;
}

const DISCOVERY = '/.well-known/openid-configuration';

function pathOf(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const cut = url.indexOf('?');
  return cut < 0 ? url : url.slice(0, cut);
}

function unavailable(res: ServerResponse, description: string): void {
  res.writeHead(503, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'retry-after': '1',
  });
  res.end(JSON.stringify({ error: 'temporarily_unavailable', error_description: description }));
}

export function createIssuerInstance(setup: InstanceSetup): IssuerInstance {
  const { config, issuer, mountPath, store } = setup;
  const logger = config.logger;
  const accounts = createAccountDirectory(config.users, config.defaultUser);
  const testing = config.enableTestingApi ? createTestingState() : undefined;
  const kept: RequestRecord[] | undefined = testing?.requests;
  const requestLog = createRequestLog(logger, kept);
  const cache = createDocumentCache();
  const resourceMetadata = protectedResourceRoutes(config.resources, issuer, config.scopes);
  let status: InstanceStatus = 'starting';
  let built: BuiltIdp | undefined;
  let startJwks: PrivateJwks | undefined;
  let building: Promise<void> | undefined;
  let extra: ((req: IncomingMessage, res: ServerResponse, next: () => void) => void) | undefined;

  const debug = testing
    ? {
        callback: `${issuer.replace(/\/$/, '')}${DEBUGGER_CALLBACK}`,
        clientSecret: randomBytes(24).toString('base64url'),
      }
    : undefined;

  async function build(jwks: PrivateJwks): Promise<void> {
    built = await buildIdp(
      config,
      {
        issuer,
        mountPath,
        jwks,
        accounts,
        personality: setup.personality,
        takeTestLogin: testing ? () => testing.takeLogin(accounts) : undefined,
        debugger: debug,
      },
      store,
    );
    cache.clear();
    status = 'ready';
  }

  /** Endpoint URLs follow the request host (and X-Forwarded-* with --trust-proxy): one cache entry per origin. */
  function documentKey(path: string, req: IncomingMessage): string {
    const host = req.headers.host ?? '';
    if (!config.trustProxy) return `${path}|${host}`;
    return `${path}|${host}|${String(req.headers['x-forwarded-proto'] ?? '')}|${String(req.headers['x-forwarded-host'] ?? '')}`;
  }

  /** A miss: runs oidc-provider once and keeps its answer (discovery trimmed to what the clients can use). */
  async function serveDocument(
    path: string,
    req: IncomingMessage,
    res: ServerResponse,
    app: BuiltIdp['app'],
  ): Promise<void> {
    const key = documentKey(path, req);
    const method = req.method;
    req.method = 'GET'; // a HEAD miss still fills the cache
    const { status: code, body } = await captureResponse(res, () => void app(req as never, res as never));
    req.method = method;
    if (code !== 200) {
      res.statusCode = code;
      res.end(body);
      return;
    }
    let json = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    if (path === DISCOVERY && built) {
      json = honestDiscovery(json, {
        registration: config.enableRegistration,
        clientGrantTypes: built.staticClients.map((c) => [...(c.grant_types ?? ['authorization_code'])]),
        accessTokenFormat: config.accessTokenFormat,
        resources: config.resources,
      });
    }
    for (const name of [
      'etag',
      'cache-control',
      'content-length',
      'content-type',
      'access-control-allow-origin',
      'vary',
    ])
      res.removeHeader(name);
    sendCached(req, res, cache.set(key, json));
  }

  const instance: IssuerInstance = {
    issuer,
    mountPath,
    get status() {
      return status;
    },
    store,
    accounts,
    get built() {
      return built;
    },
    testing,
    cache,
    get startJwks() {
      return startJwks;
    },
    start() {
      building ??= (async () => {
        const jwks = await resolveSigningKeys(config, store);
        startJwks ??= jwks;
        await build(jwks);
      })().finally(() => {
        building = undefined;
      });
      return building;
    },
    wait() {
      if (status !== 'ready') status = 'waiting';
    },
    async rebuild(jwks) {
      const next = jwks ?? built?.jwks ?? startJwks!;
      if (jwks && store.setState && !config.jwks && !config.jwksFile) await store.setState('jwks', jwks);
      await build(next);
    },
    handle(req, res) {
      // Without the testing API (no clock, faults or extra routes) a request goes straight to dispatch.
      if (!testing) {
        requestLog.observe(req, res);
        return dispatch(pathOf(req), req, res);
      }
      withClock(testing.clock, () => {
        requestLog.observe(req, res);
        extra ??= setup.routes?.(instance);
        const next = () => {
          const path = pathOf(req);
          const fault = testing.faultFor(path);
          if (fault) return void testing.apply(fault, res, () => dispatch(path, req, res));
          dispatch(path, req, res);
        };
        if (extra) extra(req, res, next);
        else next();
      });
    },
  };

  function dispatch(path: string, req: IncomingMessage, res: ServerResponse): void {
    const read = req.method === 'GET' || req.method === 'HEAD';
    // A hit is answered at once, without a promise: the two documents every client fetches most.
    const document = read && (path === DISCOVERY || path === ROUTES.jwks);
    if (document && status === 'ready') {
      const hit = cache.get(documentKey(path, req));
      if (hit) return sendCached(req, res, hit);
    }
    if (read && path.startsWith(PROTECTED_RESOURCE_PREFIX)) {
      const url = req.url ?? '';
      if (resourceMetadata(path, url.includes('?') ? url.slice(url.indexOf('?')) : '', req, res)) return;
    }
    const app = built?.app;
    if (!app || status !== 'ready') {
      return unavailable(
        res,
        status === 'waiting'
          ? 'the identity provider is waiting for its database'
          : 'the identity provider is starting',
      );
    }
    if (document) {
      serveDocument(path, req, res, app).catch((error: unknown) => {
        logger.error({ err: error }, 'cannot serve the cached document');
        if (!res.headersSent) unavailable(res, 'the document could not be produced');
      });
      return;
    }
    app(req as never, res as never);
  }

  return instance;
}
