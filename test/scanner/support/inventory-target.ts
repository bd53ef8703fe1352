/**
 * The target behind test/scanner/fixtures/inventory.openapi.yaml: a correct API (RS256 tokens verified with jose,
 * Basic, API keys in a header, the query and a cookie, owner checks answering 404, security headers, no TRACE) with
 * these planted weaknesses and no others (the scan signs in as ordinary users: user-a, and user-b as the other identity):
 * - `GET /audit-log` accepts unsigned `alg: none` tokens (jwt.alg_none);
 * - `DELETE /webhooks/{webhookId}` never checks the API key (generic.accept_unauthenticated_operation);
 * - `GET /invoices/{invoiceId}` lets any signed-in user read any invoice (object-level authorization, bola.*);
 * - `GET /me` reflects any Origin with credentials (misconfiguration.cors);
 * - `POST /sessions` sets its cookie without Secure, HttpOnly, SameSite or expiry (misconfiguration.http_cookies);
 * - `GET /debug/echo` answers TRACE (misconfiguration.http_trace);
 * - `GET /catalog` announces no rate limit and never answers 429 (resource.rate_limit_absent); every other answer
 *   carries `RateLimit-Policy`/`RateLimit` headers.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rs256Signer } from '../../fixtures/targets/jwt-target.js';

export interface InventoryTarget {
  /** `http://127.0.0.1:<port>/api`, the base URL to scan. */
  baseUrl: string;
  /** The first identity's values per security scheme, as `--security-schemes` arguments. */
  securitySchemes: string[];
  /** The second identity, as the `--as-other` value. */
  asOther: string;
  /** The Authorization values of both identities (anything else the scan sends there is forged or garbage). */
  authorizations: string[];
  /** Every request received, as `METHOD path?query` plus headers and body, in arrival order. */
  requests: { method: string; url: string; headers: Record<string, string | string[] | undefined>; body: string }[];
  close(): Promise<void>;
}

const API_KEY = 'key-123';
const SESSION = 'sess-123';
const CLERK = `Basic ${Buffer.from('clerk:s3cret').toString('base64')}`;
const ADMIN = `Basic ${Buffer.from('admin:an0ther').toString('base64')}`;
const SAFE_HEADERS: Record<string, string> = {
  'content-type': 'application/json',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cache-control': 'no-store',
  // draft-ietf-httpapi-ratelimit-headers: the quota is announced on every answer (constant, so runs stay comparable).
  'ratelimit-policy': '"default";q=1000;w=60',
  ratelimit: '"default";r=900;t=60',
};
const ORDERS: Record<string, string> = { 'ord-a1': 'user-a', 'ord-b1': 'user-b' };
const INVOICES: Record<string, string> = { 'inv-a1': 'user-a', 'inv-b1': 'user-b' };

type Auth = (req: IncomingMessage, url: URL) => Promise<string | undefined>;

function send(
  res: ServerResponse,
  status: number,
  value?: unknown,
  headers: Record<string, string | string[]> = {},
): void {
  res.writeHead(status, { ...SAFE_HEADERS, ...headers }).end(value === undefined ? '' : JSON.stringify(value));
}

/** Planted: the public catalogue announces no rate limit and never answers 429. */
function sendUnlimited(res: ServerResponse, status: number, value: unknown): void {
  const headers = Object.fromEntries(Object.entries(SAFE_HEADERS).filter(([name]) => !name.startsWith('ratelimit')));
  res.writeHead(status, headers).end(JSON.stringify(value));
}

const decodeSegment = (part: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;

export async function startInventoryTarget(): Promise<InventoryTarget> {
  const signer = await rs256Signer();
  const now = Math.floor(Date.now() / 1000);
  const tokenA = await signer.token({ sub: 'user-a', iat: now, exp: now + 3600 });
  const tokenB = await signer.token({ sub: 'user-b', iat: now, exp: now + 3600 });

  const bearer = (req: IncomingMessage): string | undefined =>
    /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
  const subjectOf = (token: string): string | undefined =>
    decodeSegment(token.split('.')[1] ?? '').sub as string | undefined;
  const jwtUser: Auth = async (req) => {
    const token = bearer(req);
    if (!token) return undefined;
    try {
      return (await signer.verify(token)) ? subjectOf(token) : undefined;
    } catch {
      return undefined;
    }
  };
  // Planted: an unsigned token is taken at its word.
  const jwtUserOrAlgNone: Auth = async (req, url) => {
    const token = bearer(req);
    try {
      if (token && String(decodeSegment(token.split('.')[0] ?? '').alg).toLowerCase() === 'none' && token.endsWith('.'))
        return subjectOf(token);
    } catch {
      return undefined;
    }
    return jwtUser(req, url);
  };
  const basic: Auth = async (req) =>
    req.headers.authorization === ADMIN ? 'admin' : req.headers.authorization === CLERK ? 'clerk' : undefined;
  const headerKey: Auth = async (req) => (req.headers['x-api-key'] === API_KEY ? 'integration' : undefined);
  const queryKey: Auth = async (_req, url) => (url.searchParams.get('api_key') === API_KEY ? 'integration' : undefined);
  const cookieKey: Auth = async (req) =>
    (req.headers.cookie ?? '').split(/;\s*/).includes(`session=${SESSION}`) ? 'user-a' : undefined;
  const anyOf =
    (...auths: Auth[]): Auth =>
    async (req, url) => {
      for (const auth of auths) {
        const user = await auth(req, url);
        if (user) return user;
      }
      return undefined;
    };
  const nobody: Auth = async () => 'anonymous';

  type Route = {
    method: string;
    pattern: RegExp;
    auth: Auth;
    handle: (res: ServerResponse, user: string, match: RegExpExecArray, req: IncomingMessage) => void;
  };
  const owned = (table: Record<string, string>, id: string, user: string): boolean => table[id] === user;
  const routes: Route[] = [
    { method: 'GET', pattern: /^\/health$/, auth: nobody, handle: (res) => send(res, 200, { status: 'ok' }) },
    {
      method: 'GET',
      pattern: /^\/catalog$/,
      auth: nobody,
      handle: (res) => sendUnlimited(res, 200, { items: [{ id: 'p-1', name: 'Lamp' }] }),
    },
    {
      method: 'GET',
      pattern: /^\/catalog\/([^/]+)$/,
      auth: nobody,
      handle: (res, _u, m) =>
        m[1] === 'p-1' ? send(res, 200, { id: 'p-1', name: 'Lamp' }) : send(res, 404, { error: 'not found' }),
    },
    {
      method: 'GET',
      pattern: /^\/orders$/,
      auth: jwtUser,
      handle: (res, user) =>
        send(
          res,
          200,
          Object.keys(ORDERS)
            .filter((id) => ORDERS[id] === user)
            .map((id) => ({ id, item: 'lamp' })),
        ),
    },
    {
      method: 'POST',
      pattern: /^\/orders$/,
      auth: jwtUser,
      handle: (res) => send(res, 201, { id: 'ord-new', item: 'lamp' }),
    },
    ...['GET', 'PUT', 'DELETE'].map((method): Route => ({
      method,
      pattern: /^\/orders\/([^/]+)$/,
      auth: jwtUser,
      handle: (res, user, m) =>
        owned(ORDERS, m[1], user)
          ? send(res, method === 'DELETE' ? 204 : 200, method === 'DELETE' ? undefined : { id: m[1], item: 'lamp' })
          : send(res, 404, { error: 'not found' }),
    })),
    {
      method: 'GET',
      pattern: /^\/invoices$/,
      auth: jwtUser,
      handle: (res, user) =>
        send(res, 200, {
          invoices: Object.keys(INVOICES)
            .filter((id) => INVOICES[id] === user)
            .map((id) => ({ id, total: 10 })),
        }),
    },
    // Planted: no owner check.
    {
      method: 'GET',
      pattern: /^\/invoices\/([^/]+)$/,
      auth: jwtUser,
      handle: (res, _u, m) =>
        INVOICES[m[1]]
          ? send(res, 200, { id: m[1], owner: INVOICES[m[1]], total: 10 })
          : send(res, 404, { error: 'not found' }),
    },
    {
      method: 'GET',
      pattern: /^\/audit-log$/,
      auth: jwtUserOrAlgNone,
      handle: (res) => send(res, 200, [{ event: 'login' }]),
    },
    {
      method: 'GET',
      pattern: /^\/me$/,
      auth: jwtUser,
      // Planted: any Origin is echoed with credentials allowed.
      handle: (res, user, _m, req) =>
        send(
          res,
          200,
          { sub: user },
          req.headers.origin
            ? {
                'access-control-allow-origin': req.headers.origin,
                'access-control-allow-credentials': 'true',
                vary: 'Origin',
              }
            : {},
        ),
    },
    // The scan signs in as an ordinary clerk (as bfla.* expects); only the admin may manage users.
    {
      method: 'GET',
      pattern: /^\/admin\/users$/,
      auth: basic,
      handle: (res, user) =>
        user === 'admin' ? send(res, 200, [{ id: 'user-a' }]) : send(res, 403, { error: 'forbidden' }),
    },
    {
      method: 'POST',
      pattern: /^\/admin\/users$/,
      auth: basic,
      handle: (res, user) =>
        user === 'admin' ? send(res, 201, { id: 'user-c' }) : send(res, 403, { error: 'forbidden' }),
    },
    {
      method: 'GET',
      pattern: /^\/webhooks$/,
      auth: headerKey,
      handle: (res) => send(res, 200, [{ id: 7, url: 'https://example.com/hook' }]),
    },
    { method: 'POST', pattern: /^\/webhooks$/, auth: headerKey, handle: (res) => send(res, 201, { id: 8 }) },
    // Planted: the key is never checked.
    {
      method: 'DELETE',
      pattern: /^\/webhooks\/(\d+)$/,
      auth: nobody,
      handle: (res, _u, m) => (m[1] === '7' ? send(res, 204) : send(res, 404, { error: 'not found' })),
    },
    { method: 'GET', pattern: /^\/exports$/, auth: queryKey, handle: (res) => send(res, 200, [{ id: 'exp-1' }]) },
    {
      method: 'GET',
      pattern: /^\/exports\/([^/]+)$/,
      auth: queryKey,
      handle: (res, _u, m) =>
        m[1] === 'exp-1' ? send(res, 200, { id: 'exp-1' }) : send(res, 404, { error: 'not found' }),
    },
    { method: 'GET', pattern: /^\/preferences$/, auth: cookieKey, handle: (res) => send(res, 200, { theme: 'dark' }) },
    {
      method: 'PATCH',
      pattern: /^\/preferences$/,
      auth: cookieKey,
      handle: (res) => send(res, 200, { theme: 'dark' }),
    },
    // Planted: a session cookie with no attributes at all.
    {
      method: 'POST',
      pattern: /^\/sessions$/,
      auth: nobody,
      handle: (res) => send(res, 201, { ok: true }, { 'set-cookie': [`session=${SESSION}`] }),
    },
    { method: 'GET', pattern: /^\/debug\/echo$/, auth: nobody, handle: (res) => send(res, 200, { echo: true }) },
    {
      method: 'GET',
      pattern: /^\/reports\/(\d{4})$/,
      auth: anyOf(jwtUser, headerKey),
      handle: (res, _u, m, req) =>
        req.headers['x-tenant']
          ? send(res, 200, { year: Number(m[1]) })
          : send(res, 400, { error: 'X-Tenant is required' }),
    },
  ];

  const requests: InventoryTarget['requests'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: { ...req.headers }, body });
      const url = new URL(req.url ?? '/', 'http://target');
      const path = url.pathname.startsWith('/api/') ? url.pathname.slice(4) : undefined;
      const candidates = path === undefined ? [] : routes.filter((r) => r.pattern.test(path));
      if (candidates.length === 0) return send(res, 404, { error: 'not found' });
      // Planted: TRACE echoes the request on the debug route (RFC 9110 §9.3.8 says a server may; it should not).
      if (req.method === 'TRACE' && path === '/debug/echo')
        return res.writeHead(200, { 'content-type': 'message/http' }).end(`TRACE ${req.url} HTTP/1.1\r\n`);
      const route = candidates.find((r) => r.method === req.method);
      if (!route)
        return send(res, 405, { error: 'method not allowed' }, { allow: candidates.map((r) => r.method).join(', ') });
      const match = route.pattern.exec(path!)!;
      route
        .auth(req, url)
        .then((user) =>
          user
            ? route.handle(res, user, match, req)
            : send(res, 401, { error: 'unauthorized' }, { 'www-authenticate': 'Bearer, Basic realm="inventory"' }),
        )
        .catch(() => send(res, 500, { error: 'internal' }));
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: `${origin}/api`,
    securitySchemes: [
      '--security-schemes',
      `bearerJwt=${tokenA}`,
      '--security-schemes',
      'basicAuth=clerk:s3cret',
      '--security-schemes',
      `apiKeyHeader=${API_KEY},apiKeyQuery=${API_KEY},sessionCookie=${SESSION}`,
    ],
    asOther: `Authorization: Bearer ${tokenB}`,
    authorizations: [`Bearer ${tokenA}`, `Bearer ${tokenB}`, CLERK],
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
