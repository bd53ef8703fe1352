/**
 * `/me` for RFC 9068 JWT access tokens. oidc-provider's userinfo endpoint only takes tokens without an audience,
 * so with `--access-token-format jwt` every relying party that calls userinfo after login would fail. This
 * answers those calls itself: a JWT-shaped bearer token that verifies against our keys (issuer, `typ: at+jwt`,
 * expiry) and carries `openid` gets `sub` plus the claims its scopes release. Any other token goes on to
 * oidc-provider unchanged. The audience is not checked here: every audience this IdP issues to may read userinfo.
 */
import type { NextFunction, Request, Response } from 'express';
import { createLocalJWKSet, jwtVerify, type JWK } from 'jose';
import type { AccountDirectory } from './accounts.js';
import { releasedClaims, type ClaimsMapping } from './claims.js';
import type { PrivateJwks } from './keys.js';

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k', 'oth'];

export function publicJwks(jwks: PrivateJwks): { keys: JWK[] } {
  return {
    keys: jwks.keys.map(
      (key) => Object.fromEntries(Object.entries(key).filter(([k]) => !PRIVATE_MEMBERS.includes(k))) as JWK,
    ),
  };
}

export function jwtUserinfo(options: {
  issuer: string;
  jwks: PrivateJwks;
  accounts: AccountDirectory;
  claims: ClaimsMapping;
}) {
  const keys = createLocalJWKSet(publicJwks(options.jwks));
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const token = /^Bearer ([\w-]+\.[\w-]+\.[\w-]+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (!token || (req.method !== 'GET' && req.method !== 'POST')) return next();
    let payload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer: options.issuer,
        typ: 'at+jwt',
        currentDate: new Date(Date.now()),
      }));
    } catch {
      return next(); // oidc-provider answers invalid_token
    }
    const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ') : [];
    const user = typeof payload.sub === 'string' ? options.accounts.lookup(payload.sub) : undefined;
    if (!user || !scopes.includes('openid')) return next();
    res.set('cache-control', 'no-store').json({ ...releasedClaims(user, scopes, options.claims), sub: user.sub });
  };
}
