/**
 * Tokens that differ from the scanned one in a single claim (exp, iss or aud), for jwt.expired_accepted,
 * jwt.issuer_not_validated and jwt.audience_not_validated. Such a token cannot be forged without the issuer's key,
 * so a check gets one only honestly: a real token the user supplies through an option (issued earlier, by another
 * issuer, for another audience), or — the known-key case — the supplied HS* token's secret is in the weak-secret
 * dictionaries (built-in list and `jwtSecretsFile`), found offline, and the token is re-signed with the claim changed.
 */
import { encodeSegment, parseUnverified, type CheckContext, type UnverifiedJwt } from '../../scanner/api.js';
import { isHmacAlg } from './jwt/algorithms.js';
import { BUILT_IN_SECRETS } from './jwt/builtin-secrets.js';
import { crackHmacSecret } from './jwt/crack-hmac-secret.js';
import type { CrackOutcome } from './jwt/weak-secret-worker.js';
import { hmacToken } from './jwt/sign.js';

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** A host no one can register (RFC 6761 §6.4): the issuer/audience values of re-signed tokens. */
export const FOREIGN_ORIGIN = 'https://gatehouse-scanner.invalid';

function secretsFiles(option: unknown): string[] {
  if (typeof option === 'string' && option !== '') return [option];
  if (Array.isArray(option)) return option.filter((f): f is string => typeof f === 'string' && f !== '');
  return [];
}

/**
 * The JWT a user gave in `ctx.options[key]`, parsed; `undefined` when the option is absent. Skips the check when the
 * value is not a JWT (a wrong option is the user's to fix, not a verdict).
 */
export function optionJwt(ctx: CheckContext, key: string): UnverifiedJwt | undefined {
  const value = ctx.options[key];
  if (value === undefined) return undefined;
  const parsed = parseUnverified(typeof value === 'string' ? value : '');
  if (!parsed.ok || !parsed.jwt.claims)
    return ctx.skip(`option ${key} is not a JWT with claims${parsed.ok ? '' : `: ${parsed.reason}`}`);
  return parsed.jwt;
}

export interface Resigned {
  token: string;
  /** Where the secret came from (list and line), never the secret. */
  source: string;
  /**
   * The finding that recovered the key: a token accepted only because we signed it with that key proves nothing new,
   * so the check links its finding to this one (`evidence.cause`) instead of scoring it again.
   */
  cause: { checkId: string; issueId: string };
}

const WEAK_SECRET_CAUSE = { checkId: 'jwt.weak_secret', issueId: 'broken_authentication.weak_secret' };
const BLANK_SECRET_CAUSE = { checkId: 'jwt.blank_secret', issueId: 'broken_authentication.blank_secret' };

/**
 * One dictionary search per token and secrets files for the whole process: three checks on every operation of an
 * OpenAPI scan ask about the same token. Failed searches are forgotten so a later check may retry.
 */
const searches = new Map<string, Promise<CrackOutcome>>();

function searchSecret(
  ctx: CheckContext,
  jwt: UnverifiedJwt & { alg: 'HS256' | 'HS384' | 'HS512' },
): Promise<CrackOutcome> {
  const files = secretsFiles(ctx.options.jwtSecretsFile);
  const key = `${jwt.alg}\u0000${jwt.raw}\u0000${files.join('\u0000')}`;
  let search = searches.get(key);
  if (!search) {
    // Not tied to one check's abort signal: the search is shared; the check's own time budget still bounds its wait.
    search = crackHmacSecret(jwt, jwt.alg, { candidates: [...BUILT_IN_SECRETS], files });
    searches.set(key, search);
    search.catch(() => searches.delete(key));
  }
  return search;
}

/**
 * The known-key case: when `jwt` is HS256/384/512 and its secret is in the dictionaries, the same header and claims
 * with `patch` applied (a claim set to `undefined` is removed), signed with that secret. Sends nothing.
 */
export async function resignWithKnownSecret(
  ctx: CheckContext,
  jwt: UnverifiedJwt,
  patch: Record<string, unknown>,
): Promise<Resigned | undefined> {
  const alg = jwt.alg;
  if (!isHmacAlg(alg) || !jwt.claims) return undefined;
  const outcome = await searchSecret(ctx, { ...jwt, alg });
  if (!outcome.match) return undefined;
  // A claim patched to `undefined` is removed from the token.
  const claims = Object.fromEntries(
    Object.entries({ ...jwt.claims, ...patch }).filter(([, value]) => value !== undefined),
  );
  const source =
    outcome.match.source === 'built-in'
      ? `built-in list entry ${outcome.match.line}`
      : `${outcome.match.source} line ${outcome.match.line}`;
  const cause = outcome.match.secret === '' ? BLANK_SECRET_CAUSE : WEAK_SECRET_CAUSE;
  return { token: hmacToken(jwt.header, encodeSegment(claims), outcome.match.secret), source, cause };
}

/** `exp`/`nbf` that let a token be accepted now, so only the claim under test can cause a rejection. */
export function currentValidity(jwt: UnverifiedJwt): Record<string, unknown> {
  const now = nowSeconds();
  const claims = jwt.claims ?? {};
  return {
    ...(typeof claims.exp === 'number' && claims.exp <= now ? { exp: now + 300 } : {}),
    ...(typeof claims.nbf === 'number' && claims.nbf > now ? { nbf: now } : {}),
  };
}

/** The `aud` claim as a list (RFC 7519 §4.1.3: a string or an array of strings). */
export function audiences(jwt: UnverifiedJwt): string[] {
  const aud = jwt.claims?.aud;
  if (typeof aud === 'string') return [aud];
  return Array.isArray(aud) ? aud.filter((a): a is string => typeof a === 'string') : [];
}

/** True when the token's `exp` is a number in the past by more than `leewaySeconds`. */
export function expiredSince(jwt: UnverifiedJwt, leewaySeconds: number): boolean {
  const exp = jwt.claims?.exp;
  return typeof exp === 'number' && exp < nowSeconds() - leewaySeconds;
}
