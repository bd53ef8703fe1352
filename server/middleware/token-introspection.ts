/**
 * Opaque access tokens through RFC 7662 introspection, authenticated as a protected resource
 * (client_secret_basic, RFC 6749 §2.3.1). Only `active === true` counts; a timeout, a non-200 or a body that
 * is not an introspection response is an outage (503), never an inactive or an accepted token (research §2.3).
 * Results are cached by SHA-256 of the token, never past the token's `exp`; negative results only briefly.
 */
import { createHash } from 'node:crypto';
import type { ServiceConfig } from '../config.js';
import type { Principal } from '../principal.js';
import type { AuthEndpoints } from './auth-endpoints.js';
import { authUnavailable, invalidToken } from './bearer-errors.js';

const INTROSPECTION_TIMEOUT_MS = 3000;
const NEGATIVE_TTL_MS = 5000;
const MAX_ENTRIES = 10_000;

interface CacheEntry {
  principal: Principal | null;
  expiresAt: number;
}

export type Introspector = (token: string) => Promise<Principal>;

interface IntrospectionResponse {
  active?: unknown;
  scope?: unknown;
  client_id?: unknown;
  sub?: unknown;
  exp?: unknown;
  aud?: unknown;
  iss?: unknown;
  token_type?: unknown;
}

function formEncode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}

/** The principal for an active response, or null when the token must not be accepted here. */
function principalOf(body: IntrospectionResponse, config: ServiceConfig, nowS: number): Principal | null {
  if (body.active !== true) return null;
  if (typeof body.exp === 'number' && body.exp + config.authClockToleranceS <= nowS) return null;
  if (body.iss !== undefined && body.iss !== config.authIssuer) return null;
  // `aud` is optional in RFC 7662; when present it must name this API.
  if (body.aud !== undefined) {
    const auds = Array.isArray(body.aud) ? body.aud : [body.aud];
    if (!auds.includes(config.authAudience)) return null;
  }
  // A refresh token or ID token introspected as active is still not an access token.
  if (
    body.token_type !== undefined &&
    (typeof body.token_type !== 'string' || !['bearer', 'access_token'].includes(body.token_type.toLowerCase()))
  )
    return null;
  const clientId = typeof body.client_id === 'string' && body.client_id ? body.client_id : undefined;
  // Client-credentials tokens may carry no `sub`; the client is then the subject (RFC 9068 §2.2).
  const sub = typeof body.sub === 'string' && body.sub ? body.sub : clientId;
  if (!sub) return null;
  const scopes = new Set(typeof body.scope === 'string' ? body.scope.split(' ').filter(Boolean) : []);
  return { sub, clientId, scopes, tokenKind: 'opaque' };
}

export function createIntrospector(
  config: ServiceConfig,
  endpoints: AuthEndpoints,
  options: { timeoutMs?: number } = {},
): Introspector {
  const timeoutMs = options.timeoutMs ?? INTROSPECTION_TIMEOUT_MS;
  const cache = new Map<string, CacheEntry>();
  const authorization =
    config.authClientId !== undefined
      ? `Basic ${Buffer.from(`${formEncode(config.authClientId)}:${formEncode(config.authClientSecret ?? '')}`).toString('base64')}`
      : undefined;

  function remember(key: string, principal: Principal | null, expS: unknown): void {
    const now = Date.now();
    let ttl = principal
      ? config.authIntrospectionCacheS * 1000
      : Math.min(NEGATIVE_TTL_MS, config.authIntrospectionCacheS * 1000);
    if (principal && typeof expS === 'number') ttl = Math.min(ttl, expS * 1000 - now);
    if (ttl <= 0) return;
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
    cache.set(key, { principal, expiresAt: now + ttl });
  }

  async function introspect(token: string): Promise<IntrospectionResponse> {
    const url = await endpoints.introspectionEndpoint();
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
          ...(authorization ? { authorization } : {}),
        },
        body: `token=${formEncode(token)}&token_type_hint=access_token`,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw authUnavailable(err);
    }
    if (res.status !== 200) {
      await res.body?.cancel();
      throw authUnavailable(new Error(`introspection answered ${res.status}`));
    }
    let body: unknown;
    try {
      body = await res.json();
    } catch (err) {
      throw authUnavailable(err);
    }
    // `active` is the one REQUIRED member (RFC 7662 §2.2): without it the answer is not an introspection response.
    if (typeof body !== 'object' || body === null || Array.isArray(body) || !('active' in body)) {
      throw authUnavailable(new Error('introspection answered something that is not an introspection response'));
    }
    return body;
  }

  /** Concurrent requests with the same uncached token share one introspection call. */
  const inFlight = new Map<string, Promise<Principal | null>>();

  async function lookUp(key: string, token: string): Promise<Principal | null> {
    const body = await introspect(token);
    const principal = principalOf(body, config, Math.floor(Date.now() / 1000));
    remember(key, principal, body.exp);
    return principal;
  }

  return async (token) => {
    const key = createHash('sha256').update(token).digest('base64url');
    const hit = cache.get(key);
    let principal: Principal | null;
    if (hit && hit.expiresAt > Date.now()) {
      principal = hit.principal;
    } else {
      if (hit) cache.delete(key);
      let pending = inFlight.get(key);
      if (!pending) {
        pending = lookUp(key, token).finally(() => inFlight.delete(key));
        inFlight.set(key, pending);
      }
      principal = await pending;
    }
    if (!principal) throw invalidToken();
    return principal;
  };
}
