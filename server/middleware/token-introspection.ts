/**
 * Opaque access tokens through RFC 7662 introspection, authenticated as a protected resource
 * (client_secret_basic, RFC 6749 §2.3.1). Only `active === true` counts; a timeout, a non-200 or a body that
 * is not an introspection response is an outage (503), never an inactive or an accepted token (docs/architecture.md §R.1).
 * Results are cached by SHA-256 of the token, never past the token's `exp`; negative results only briefly.
 * The audience is checked as for JWTs: an answer without `aud` is refused unless the surface admits it
 * (API_AUTH_ALLOW_MISSING_AUDIENCE, public API only: weaker, since any token of the authorization server then
 * passes, whatever resource it was issued for).
 */
import { createHash } from 'node:crypto';
import type { ServiceConfig } from '../config.js';
import type { Principal } from '../principal.js';
import type { AuthEndpoints } from './auth-endpoints.js';
import { authUnavailable, invalidToken, type Refusal } from './bearer-errors.js';

const INTROSPECTION_TIMEOUT_MS = 3000;
const NEGATIVE_TTL_MS = 5000;
const MAX_ENTRIES = 10_000;

interface CacheEntry {
  outcome: Principal | Refusal;
  expiresAt: number;
}

export interface IntrospectionOptions {
  /** How long an introspection call may take before the request gets a 503 (default 3 s). */
  timeoutMs?: number;
  /** The audience tokens must name (the surface's: API_AUTH_AUDIENCE or INTERNAL_AUTH_AUDIENCE). */
  audience: string;
  /** Whether an answer without `aud` is accepted (API_AUTH_ALLOW_MISSING_AUDIENCE; never on the internal surface). */
  allowMissingAudience: boolean;
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

const isPrincipal = (outcome: Principal | Refusal): outcome is Principal => 'sub' in outcome;
const values = (value: unknown) =>
  value === undefined ? undefined : (Array.isArray(value) ? value : [value]).map((v) => String(v));

/** The principal for an active response, or the rule that keeps the token out. */
function outcomeOf(
  body: IntrospectionResponse,
  config: ServiceConfig,
  options: IntrospectionOptions,
  nowS: number,
): Principal | Refusal {
  if (body.active !== true) return { rule: 'inactive', got: String(body.active) };
  if (typeof body.exp === 'number' && body.exp + config.authClockToleranceS <= nowS)
    return { rule: 'expired', got: new Date(body.exp * 1000).toISOString() };
  if (body.iss !== undefined && body.iss !== config.authIssuer)
    return { rule: 'issuer', expected: config.authIssuer, got: values(body.iss) };
  // `aud` is optional in RFC 7662; this service requires it unless the surface admits its absence.
  if (body.aud === undefined ? !options.allowMissingAudience : !values(body.aud)!.includes(options.audience))
    return { rule: 'audience', expected: options.audience, got: values(body.aud) };
  // A refresh token or ID token introspected as active is still not an access token.
  if (
    body.token_type !== undefined &&
    (typeof body.token_type !== 'string' || !['bearer', 'access_token'].includes(body.token_type.toLowerCase()))
  )
    return { rule: 'token_type', expected: ['bearer', 'access_token'], got: JSON.stringify(body.token_type) };
  const clientId = typeof body.client_id === 'string' && body.client_id ? body.client_id : undefined;
  // Client-credentials tokens may carry no `sub`; the client is then the subject (RFC 9068 §2.2).
  const sub = typeof body.sub === 'string' && body.sub ? body.sub : clientId;
  if (!sub) return { rule: 'claims', expected: ['sub', 'client_id'] };
  const scopes = new Set(typeof body.scope === 'string' ? body.scope.split(' ').filter(Boolean) : []);
  return { sub, clientId, scopes, tokenKind: 'opaque' };
}

/** client_secret_basic credentials of this service as a protected resource (RFC 7662 §2.1), if configured. */
function clientAuthorization(config: ServiceConfig): string | undefined {
  return config.authClientId !== undefined
    ? `Basic ${Buffer.from(`${formEncode(config.authClientId)}:${formEncode(config.authClientSecret ?? '')}`).toString('base64')}`
    : undefined;
}

/** One introspection call: the answer, or a 503 AppError (`introspection_unreachable`) with what went wrong. */
async function introspectionCall(
  config: ServiceConfig,
  endpoints: AuthEndpoints,
  token: string,
  timeoutMs: number,
): Promise<IntrospectionResponse> {
  const url = await endpoints.introspectionEndpoint();
  const unreachable = (cause: unknown) => authUnavailable({ rule: 'introspection_unreachable', expected: url }, cause);
  const authorization = clientAuthorization(config);
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
    throw unreachable(err);
  }
  if (res.status !== 200) {
    await res.body?.cancel();
    throw unreachable(new Error(`introspection answered ${res.status}`));
  }
  let body: unknown;
  try {
    body = await res.json();
  } catch (err) {
    throw unreachable(err);
  }
  // `active` is the one REQUIRED member (RFC 7662 §2.2): without it the answer is not an introspection response.
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !('active' in body)) {
    throw unreachable(new Error('introspection answered something that is not an introspection response'));
  }
  return body;
}

/**
 * Readiness: the introspection endpoint answers this service (its credentials included) with an introspection
 * response for a token that is no token; rejects with the 503 AppError otherwise.
 */
export async function introspectionAnswers(config: ServiceConfig, endpoints: AuthEndpoints): Promise<void> {
  await introspectionCall(config, endpoints, 'gatehouse-readiness-probe', INTROSPECTION_TIMEOUT_MS);
}

export function createIntrospector(
  config: ServiceConfig,
  endpoints: AuthEndpoints,
  options: IntrospectionOptions,
): Introspector {
  const timeoutMs = options.timeoutMs ?? INTROSPECTION_TIMEOUT_MS;
  const cache = new Map<string, CacheEntry>();
  function remember(key: string, outcome: Principal | Refusal, expS: unknown): void {
    const now = Date.now();
    const accepted = isPrincipal(outcome);
    let ttl = accepted
      ? config.authIntrospectionCacheS * 1000
      : Math.min(NEGATIVE_TTL_MS, config.authIntrospectionCacheS * 1000);
    if (accepted && typeof expS === 'number') ttl = Math.min(ttl, expS * 1000 - now);
    if (ttl <= 0) return;
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
    cache.set(key, { outcome, expiresAt: now + ttl });
  }

  /** Concurrent requests with the same uncached token share one introspection call. */
  const inFlight = new Map<string, Promise<Principal | Refusal>>();

  async function lookUp(key: string, token: string): Promise<Principal | Refusal> {
    const body = await introspectionCall(config, endpoints, token, timeoutMs);
    const outcome = outcomeOf(body, config, options, Math.floor(Date.now() / 1000));
    remember(key, outcome, body.exp);
    return outcome;
  }

  return async (token) => {
    const key = createHash('sha256').update(token).digest('base64url');
    const hit = cache.get(key);
    let outcome: Principal | Refusal;
    if (hit && hit.expiresAt > Date.now()) {
      outcome = hit.outcome;
    } else {
      if (hit) cache.delete(key);
      let pending = inFlight.get(key);
      if (!pending) {
        pending = lookUp(key, token).finally(() => inFlight.delete(key));
        inFlight.set(key, pending);
      }
      outcome = await pending;
    }
    // The authorization server answered for the token: what it says about it may be shown to its bearer.
    if (!isPrincipal(outcome)) throw invalidToken(outcome, { named: true });
    return outcome;
  };
}
