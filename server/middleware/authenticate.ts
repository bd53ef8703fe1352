/**
 * Authentication for /api/v1 (DESIGN.md §1.2): the bearer token from the `Authorization` header only; JWTs
 * go to express-jwt + jwks-rsa with the RFC 9068 checks, anything else to RFC 7662 introspection. Both end in
 * the same `req.principal`, so nothing downstream knows which kind of token it was.
 */
import type { RequestHandler } from 'express';
import type { ApiDeps } from '../deps.js';
import { createAuthEndpoints } from './auth-endpoints.js';
import { invalidToken, malformedAuthorization, missingToken } from './bearer-errors.js';
import { createJwtVerifier } from './jwt-access-token.js';
import { createSigningKeys } from './signing-keys.js';
import { createIntrospector } from './token-introspection.js';
import { looksLikeJwt } from './token-shape.js';

/** RFC 6750 §2.1: `Bearer` 1*SP b64token. */
const BEARER = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i;
const MAX_TOKEN_LENGTH = 8192;

export interface AuthenticateOptions {
  /** How long an introspection call may take before the request gets a 503 (default 3 s). */
  introspectionTimeoutMs?: number;
}

export function createAuthenticate(deps: ApiDeps, options: AuthenticateOptions = {}): RequestHandler {
  const { config, logger } = deps;
  const endpoints = createAuthEndpoints(config);
  const acceptsJwt = config.authTokenTypes.includes('jwt');
  const acceptsOpaque = config.authTokenTypes.includes('opaque');
  const verifyJwt = acceptsJwt ? createJwtVerifier(config, createSigningKeys(endpoints, logger)) : undefined;
  const introspect = acceptsOpaque
    ? createIntrospector(config, endpoints, { timeoutMs: options.introspectionTimeoutMs })
    : undefined;

  return async (req, res, next) => {
    const header = req.headers.authorization;
    if (header === undefined || header.trim() === '') throw missingToken();
    // Another scheme (Basic, …) means no bearer credentials were presented: a challenge without `error`.
    if (!/^Bearer(\s|$)/i.test(header)) throw missingToken();
    const match = BEARER.exec(header);
    if (!match || match[1].length > MAX_TOKEN_LENGTH) throw malformedAuthorization();
    const token = match[1];
    // With JWTs accepted, a JWT-shaped token is verified locally and never introspected (research §2.3);
    // with opaque tokens only, every token goes to introspection (the AS decides what it issued).
    if (verifyJwt && looksLikeJwt(token)) req.principal = await verifyJwt(req, res);
    else if (introspect) req.principal = await introspect(token);
    else throw invalidToken();
    next();
  };
}
