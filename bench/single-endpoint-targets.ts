/**
 * 24 single-endpoint targets for the start-up side-by-side (bench/scanner-startup.ts): every combination of six ways
 * to guard the endpoint (none, a verified HS256 JWT, a JWT signed with a dictionary secret, a verifier that accepts
 * alg "none", an API key, Basic), hardened or bare response headers, and a CORS policy that reflects any Origin with
 * credentials or none. One loopback server answers all of them, by path; each comes with the curl flags to scan it.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

type Guard = 'none' | 'jwt' | 'weak-jwt' | 'alg-none' | 'api-key' | 'basic';
const GUARDS: readonly Guard[] = ['none', 'jwt', 'weak-jwt', 'alg-none', 'api-key', 'basic'];

export interface SingleEndpointTarget {
  name: string;
  url: string;
  /** The curl flags that carry its credential. */
  flags: string[];
}

const STRONG = 'a-long-random-bench-secret-that-no-dictionary-holds-7f3c9a';
const WEAK = 'secret';
const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

function jwt(secret: string): string {
  const input = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: 'bench', exp: Math.floor(Date.now() / 1000) + 3600 })}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}

function verifies(token: string | undefined, secret: string, acceptNone: boolean): boolean {
  const parts = token?.split('.');
  if (!parts || parts.length !== 3) return false;
  try {
    const header = JSON.parse(Buffer.from(parts[0], 'base64url').toString()) as { alg?: string };
    if (acceptNone && header.alg?.toLowerCase() === 'none') return true;
  } catch {
    return false;
  }
  return createHmac('sha256', secret).update(`${parts[0]}.${parts[1]}`).digest('base64url') === parts[2];
}

function allowed(guard: Guard, req: IncomingMessage): boolean {
  const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
  switch (guard) {
    case 'none':
      return true;
    case 'jwt':
      return verifies(bearer, STRONG, false);
    case 'weak-jwt':
      return verifies(bearer, WEAK, false);
    case 'alg-none':
      return verifies(bearer, STRONG, true);
    case 'api-key':
      return req.headers['x-api-key'] === 'bench-key-1234';
    case 'basic':
      return req.headers.authorization === `Basic ${Buffer.from('bench:pass').toString('base64')}`;
  }
}

function credentialFlags(guard: Guard): string[] {
  if (guard === 'jwt' || guard === 'alg-none') return ['-H', `Authorization: Bearer ${jwt(STRONG)}`];
  if (guard === 'weak-jwt') return ['-H', `Authorization: Bearer ${jwt(WEAK)}`];
  if (guard === 'api-key') return ['-H', 'X-API-Key: bench-key-1234'];
  if (guard === 'basic') return ['-u', 'bench:pass'];
  return [];
}

/** Starts the server; `close` stops it. */
export async function startSingleEndpointTargets(): Promise<{ targets: SingleEndpointTarget[]; close: () => void }> {
  const server: Server = createServer((req, res) => {
    const [, guard, headers, cors] = /^\/([a-z-]+)\/(hardened|bare)\/(cors|plain)\/items/.exec(req.url ?? '') ?? [];
    const headersOut: Record<string, string> = { 'content-type': 'application/json' };
    if (headers === 'hardened')
      Object.assign(headersOut, {
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'content-security-policy': "frame-ancestors 'none'",
        'ratelimit-limit': '100',
      });
    else headersOut.server = 'Apache/2.4.1';
    if (cors === 'cors' && req.headers.origin)
      Object.assign(headersOut, {
        'access-control-allow-origin': req.headers.origin,
        'access-control-allow-credentials': 'true',
      });
    const ok = req.method === 'GET' && GUARDS.includes(guard as Guard) && allowed(guard as Guard, req);
    res.writeHead(ok ? 200 : req.method === 'GET' ? 401 : 405, headersOut);
    res.end(ok ? '{"items":[{"id":1}]}' : '{"error":"unauthorized"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const targets: SingleEndpointTarget[] = [];
  for (const guard of GUARDS)
    for (const headers of ['hardened', 'bare'])
      for (const cors of ['plain', 'cors'])
        targets.push({
          name: `${guard}/${headers}/${cors}`,
          url: `${origin}/${guard}/${headers}/${cors}/items`,
          flags: credentialFlags(guard),
        });
  return { targets, close: () => server.close() };
}
