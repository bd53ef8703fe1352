/**
 * JWT access tokens: express-jwt verifies signature, algorithm allowlist, `iss`, `aud` and time claims with
 * keys from jwks-rsa; this module adds what express-jwt lacks (docs/architecture.md §R.4, RFC 9068 §4): header
 * `typ` = `at+jwt`, and the profile's required claims (`exp`, `sub`, `client_id`, `iat`, `jti`).
 */
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { expressjwt, type GetVerificationKey } from 'express-jwt';
import jsonwebtoken, { type Algorithm, type JwtPayload } from 'jsonwebtoken';
import { isAppError, type AppError } from '../../lib/app-error.js';
import type { ServiceConfig } from '../config.js';
import type { Principal } from '../principal.js';
import { invalidToken } from './bearer-errors.js';
import type { SigningKeys } from './signing-keys.js';

/** RFC 9068 §2.1: `at+jwt`; media types may carry the `application/` prefix (RFC 7515 §4.1.9). */
const ACCESS_TOKEN_TYPES = new Set(['at+jwt', 'application/at+jwt']);
const NEVER_ALLOWED = /^(none|HS\d+)$/i;

export type JwtPrincipalVerifier = (req: Request, res: Response) => Promise<Principal>;

/**
 * Verified tokens are remembered by SHA-256 for at most this long and never past their `exp` (plus the clock
 * tolerance), so a client's repeated calls do not pay the signature check each time — the same trade the
 * introspection cache makes: a signing key removed from the JWKS stops being trusted within this bound.
 */
const VERIFIED_TTL_MS = 60_000;
const VERIFIED_MAX = 10_000;

interface Verified {
  principal: Principal;
  until: number;
}

function scopesOf(payload: JwtPayload): Set<string> {
  const scope: unknown = payload.scope;
  return new Set(typeof scope === 'string' ? scope.split(' ').filter(Boolean) : []);
}

function nonEmpty(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

/** The rule a token express-jwt refused broke, from jsonwebtoken's error (claims are checked after the signature). */
function rejection(
  err: unknown,
  req: Request,
  expected: { issuer: string; audience: string },
  algorithms: readonly string[],
): AppError {
  const inner = (err as { inner?: { name?: string; message?: string; expiredAt?: Date; date?: Date } }).inner;
  const message = inner?.message ?? '';
  const token = (req.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
  const decoded = jsonwebtoken.decode(token, { complete: true, json: true });
  const payload = (decoded?.payload ?? {}) as JwtPayload;
  const claim = (value: unknown) => (value === undefined ? undefined : [value as string | string[]].flat().map(String));
  const genuine = { cause: err, named: true };
  if (inner?.name === 'TokenExpiredError')
    return invalidToken({ rule: 'expired', got: inner.expiredAt?.toISOString() }, genuine);
  if (inner?.name === 'NotBeforeError')
    return invalidToken({ rule: 'not_yet_valid', got: inner.date?.toISOString() }, genuine);
  if (message.startsWith('jwt audience invalid'))
    return invalidToken({ rule: 'audience', expected: expected.audience, got: claim(payload.aud) }, genuine);
  if (message.startsWith('jwt issuer invalid'))
    return invalidToken({ rule: 'issuer', expected: expected.issuer, got: claim(payload.iss) }, genuine);
  if (message === 'invalid signature') return invalidToken({ rule: 'signature' }, { cause: err });
  if (message === 'invalid algorithm')
    return invalidToken({ rule: 'algorithm', expected: [...algorithms], got: decoded?.header.alg }, { cause: err });
  return invalidToken({ rule: 'malformed' }, { cause: err });
}

/** RFC 9068 §2.2's claims a verified payload lacks (jsonwebtoken itself accepts a token without `exp`). */
function missingClaims(payload: JwtPayload | undefined): string[] {
  if (!payload) return ['exp', 'iat', 'sub', 'client_id', 'jti'];
  const missing: string[] = [];
  if (typeof payload.exp !== 'number') missing.push('exp');
  if (typeof payload.iat !== 'number') missing.push('iat');
  for (const name of ['sub', 'client_id', 'jti'] as const) if (!nonEmpty(payload[name])) missing.push(name);
  return missing;
}

export function createJwtVerifier(
  config: ServiceConfig,
  keys: SigningKeys,
  audience: string = config.authAudience,
): JwtPrincipalVerifier {
  const algorithms = config.authAlgorithms.filter((a) => !NEVER_ALLOWED.test(a)) as Algorithm[];
  const allowed = new Set<string>(algorithms);

  // Checked on the decoded header before any key is fetched, so a wrong `typ` or `alg` costs no JWKS request.
  const secret: GetVerificationKey = async (_req, token) => {
    const header = token?.header;
    if (!header || typeof header.alg !== 'string' || !allowed.has(header.alg))
      throw invalidToken({ rule: 'algorithm', expected: algorithms, got: header?.alg });
    // RFC 7515 §4.1.11: extensions we do not understand must not be ignored; we understand none.
    if ((header as { crit?: unknown }).crit !== undefined) throw invalidToken({ rule: 'malformed', got: 'crit' });
    const typ: unknown = header.typ;
    if (typeof typ !== 'string' || !ACCESS_TOKEN_TYPES.has(typ.toLowerCase()))
      throw invalidToken({ rule: 'token_type', expected: 'at+jwt', got: typeof typ === 'string' ? typ : undefined });
    // The KeyObject type differs between @types/node and jsonwebtoken's Secret; both are node:crypto's.
    return keys.keyFor(header.kid, header.alg);
  };

  const verify = expressjwt({
    secret,
    algorithms,
    issuer: config.authIssuer,
    audience,
    clockTolerance: config.authClockToleranceS,
    credentialsRequired: true,
    requestProperty: 'auth',
  });

  const verified = new Map<string, Verified>();
  const copy = (p: Principal): Principal => ({ ...p, scopes: new Set(p.scopes) });

  const verifyNow: JwtPrincipalVerifier = (req, res) =>
    new Promise<Principal>((resolve, reject) => {
      void verify(req, res, (err?: unknown) => {
        if (err !== undefined && err !== null) {
          // express-jwt's UnauthorizedError (signature, iss, aud, exp, nbf, malformed) and anything else: invalid token.
          reject(isAppError(err) ? err : rejection(err, req, { issuer: config.authIssuer, audience }, algorithms));
          return;
        }
        const payload = (req as Request & { auth?: JwtPayload }).auth;
        delete (req as Request & { auth?: JwtPayload }).auth;
        // jsonwebtoken accepts a token without `exp` (docs/architecture.md §R.4); RFC 9068 §2.2 requires these claims.
        const missing = missingClaims(payload);
        if (!payload || missing.length > 0) {
          reject(invalidToken({ rule: 'claims', expected: missing }));
          return;
        }
        const principal: Principal = {
          sub: payload.sub as string,
          clientId: payload.client_id as string,
          scopes: scopesOf(payload),
          tokenKind: 'jwt',
        };
        (req as Request & { verifiedUntil?: number }).verifiedUntil =
          (payload.exp as number) * 1000 + config.authClockToleranceS * 1000;
        resolve(principal);
      });
    });

  return async (req, res) => {
    const header = req.headers.authorization;
    const key = header ? createHash('sha256').update(header).digest('base64url') : undefined;
    const now = Date.now();
    const hit = key ? verified.get(key) : undefined;
    if (hit && hit.until > now) return copy(hit.principal);
    if (hit) verified.delete(key!);
    const principal = await verifyNow(req, res);
    const expiresAt = (req as Request & { verifiedUntil?: number }).verifiedUntil ?? now;
    delete (req as Request & { verifiedUntil?: number }).verifiedUntil;
    if (key && expiresAt > now) {
      if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value as string);
      verified.set(key, { principal: copy(principal), until: Math.min(now + VERIFIED_TTL_MS, expiresAt) });
    }
    return principal;
  };
}
