/**
 * The edge-worker entry (docs/architecture.md §3.3): the same IdP the CLI builds (`buildIdp`, configuration from `IDP_*` worker
 * variables), state and keys in the D1 binding `DB`, served through workerd's `cloudflare:node` httpServerHandler.
 * The issuer is `IDP_ISSUER`, else the origin of the request (one provider per origin, built on first use).
 * Without the D1 binding, `/healthz` still answers and `/readyz` reports 503.
 */
import { httpServerHandler } from 'cloudflare:node';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createLogger } from '../../lib/logger.js';
import type { IdpStore } from '../adapters/store.js';
import { createIssuerInstance, type IssuerInstance } from '../issuer-instance.js';
import { runChecks } from '../health.js';
import { createD1Store } from './d1-store.js';
import type { D1Database } from './d1-types.js';
import type { IdpConfig } from '../settings.js';
import { idpError } from '../errors.js';
import { workerConfigFrom } from './worker-options.js';

export interface WorkerEnv {
  DB?: D1Database;
  [variable: string]: unknown;
}

/** The isolate-internal port the node:http server listens on; never reachable from outside the isolate. */
const INTERNAL_PORT = 8484;
/** Built providers kept per isolate (one per issuer); origins beyond this evict the oldest. */
const MAX_ISSUERS = 8;

const building = new Map<string, Promise<IssuerInstance>>();
const built = new Map<string, IssuerInstance>();
let config: { value?: IdpConfig; error?: Error } | undefined;
let store: IdpStore | undefined;

function configFrom(env: WorkerEnv) {
  if (!config) {
    try {
      const parsed = workerConfigFrom(env);
      // Workers collect console output as the log stream; pino's JSON lines go there.
      const logger = createLogger(
        { level: parsed.logLevel, name: 'idp' },
        { write: (line: string) => console.log(line.trimEnd()) },
      );
      config = { value: Object.freeze({ ...parsed, logger }) };
    } catch (error) {
      config = { error: error as Error };
    }
  }
  return config;
}

/** The issuer of a request whose X-Forwarded-Proto/Host the fetch handler has already settled. */
function issuerOf(headers: { get(name: string): string | null | undefined }, configured: string | undefined): string {
  return configured ?? `${headers.get('x-forwarded-proto')}://${headers.get('x-forwarded-host')}`;
}

function idpFor(issuer: string, env: WorkerEnv, settings: IdpConfig): Promise<IssuerInstance> {
  let pending = building.get(issuer);
  if (!pending) {
    const d1 = (store ??= createD1Store(env.DB!));
    // The same issuer instance as the Node IdP (cached discovery and JWKS, honest discovery, request log lines);
    // endpoint URLs come from X-Forwarded-* that the fetch handler sets from the request URL (so always trusted here).
    const instance = createIssuerInstance({
      config: Object.freeze({ ...settings, trustProxy: true, store: d1 }),
      issuer,
      mountPath: '',
      store: d1,
    });
    pending = instance.start().then(() => instance);
    building.set(issuer, pending);
    pending.then(
      (idp) => built.set(issuer, idp),
      () => building.delete(issuer), // a failed build (D1 briefly unreachable) is retried by the next request
    );
    if (building.size > MAX_ISSUERS) {
      const oldest = building.keys().next().value!;
      building.delete(oldest);
      built.delete(oldest);
    }
  }
  return pending;
}

/** Bodies up to this size are read whole before the provider sees them; larger ones are drained and refused. */
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Reads the request body to its end before anything answers. oidc-provider refuses an oversized body without
 * reading it; workerd then sends that answer and closes the connection while the client is still uploading, and
 * the client sees ECONNRESET ("fetch failed") instead of the 400 — a race the load of a full test run loses
 * now and then. Consuming the upload first leaves nothing unread when the response goes out.
 */
async function readWholeBody(request: Request): Promise<{ body?: Uint8Array; tooLarge: boolean }> {
  if (!request.body) return { tooLarge: false };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = (await reader.read()) as { done: boolean; value?: Uint8Array };
    if (done || !value) break;
    size += value.byteLength;
    if (size <= MAX_BODY_BYTES) chunks.push(value); // past the limit: keep draining, keep nothing
  }
  if (size > MAX_BODY_BYTES) return { tooLarge: true };
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { body, tooLarge: false };
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });
}

/** Health answers for when the provider cannot be built (no D1 binding, invalid variables). */
async function unavailable(path: string, problems: { oidc: string; db?: string }): Promise<Response> {
  if (path === '/healthz') return json(200, { status: 'ok' });
  const checks: Record<string, () => Promise<void>> = {
    oidc: async () => {
      throw idpError('not_ready', problems.oidc);
    },
  };
  if (problems.db) {
    const db = problems.db;
    checks.db = async () => {
      throw idpError('database_unavailable', db);
    };
  }
  if (path === '/readyz') return json(503, await runChecks(checks));
  return json(503, { error: 'temporarily_unavailable', error_description: problems.oidc });
}

const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  const issuer = issuerOf({ get: (name) => req.headers[name] as string | undefined }, config?.value?.issuer);
  const idp = built.get(issuer);
  if (!idp?.built) {
    res
      .writeHead(503, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: 'temporarily_unavailable' }));
    return;
  }
  const path = (req.url ?? '/').split('?')[0];
  // Health stays with the built app's router (checks oidc and D1); everything else goes through the instance.
  if (path === '/healthz' || path === '/readyz') idp.built.app(req as never, res as never);
  else idp.handle(req, res);
});
server.listen(INTERNAL_PORT);
const bridge = httpServerHandler({ port: INTERNAL_PORT });

export default {
  async fetch(request: Request, env: WorkerEnv, ctx: unknown): Promise<Response> {
    const url = new URL(request.url);
    const { value: settings, error } = configFrom(env);
    if (!settings) return unavailable(url.pathname, { oidc: `invalid worker variables: ${error!.message}` });
    if (!env.DB) {
      const missing = 'no D1 binding "DB" (d1_databases in wrangler.jsonc)';
      return unavailable(url.pathname, { oidc: `not started: ${missing}`, db: missing });
    }
    const headers = new Headers(request.headers);
    // The request URL is authoritative unless IDP_TRUST_PROXY says a proxy in front already set these.
    if (!settings.trustProxy || !headers.has('x-forwarded-proto'))
      headers.set('x-forwarded-proto', url.protocol.slice(0, -1));
    if (!settings.trustProxy || !headers.has('x-forwarded-host')) headers.set('x-forwarded-host', url.host);
    const connecting = headers.get('cf-connecting-ip');
    if (connecting && !settings.trustProxy) headers.set('x-forwarded-for', connecting);
    else if (!settings.trustProxy) headers.delete('x-forwarded-for');
    const issuer = issuerOf(headers, settings.issuer);
    try {
      await idpFor(issuer, env, settings);
    } catch (buildError) {
      settings.logger.error({ err: buildError }, 'cannot build the provider');
      return unavailable(url.pathname, { oidc: `cannot start: ${(buildError as Error).message}`, db: undefined });
    }
    const { body, tooLarge } = await readWholeBody(request);
    if (tooLarge)
      return json(413, {
        error: 'invalid_request',
        error_description: `request body larger than ${MAX_BODY_BYTES} bytes`,
      });
    return bridge.fetch(
      new Request(request.url, { method: request.method, headers, body, redirect: 'manual' }),
      env,
      ctx,
    );
  },
};
