/**
 * Authentication of a listener (docs/architecture.md §1.2, §1.10): the bearer token from the `Authorization` header only;
 * JWTs go to express-jwt + jwks-rsa with the RFC 9068 checks, anything else to RFC 7662 introspection. Both end in
 * the same `req.principal`, so nothing downstream knows which kind of token it was. Both surfaces require their
 * audience: the public API API_AUTH_AUDIENCE (introspected tokens without `aud` only with
 * API_AUTH_ALLOW_MISSING_AUDIENCE), the internal surface INTERNAL_AUTH_AUDIENCE with no exception. A refused token
 * is explained once, at debug level: the rule, what was expected and what the token had, never the token.
 */
import type { RequestHandler } from 'express';
import { errorChain } from '../../lib/error-chain.js';
import { isAppError } from '../../lib/app-error.js';
import type { ApiDeps } from '../deps.js';
import { createAuthorizationServer, type AuthorizationServer } from './authorization-server.js';
import { invalidToken, malformedAuthorization, missingToken, refusalOf } from './bearer-errors.js';
import { createJwtVerifier } from './jwt-access-token.js';
import { createIntrospector } from './token-introspection.js';
import { looksLikeJwt } from './token-shape.js';

/** RFC 6750 §2.1: `Bearer` 1*SP b64token. */
const BEARER = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i;
const MAX_TOKEN_LENGTH = 8192;

type Surface = 'public' | 'internal';

export interface AuthenticateOptions {
  /** How long an introspection call may take before the request gets a 503 (default 3 s). */
  introspectionTimeoutMs?: number;
  /** The listener: its audience and whether introspected tokens may lack `aud` (default public). */
  surface?: Surface;
  /** Shared with the listener's readiness check (default: one of its own). */
  authorizationServer?: AuthorizationServer;
}

export function createAuthenticate(
  deps: Pick<ApiDeps, 'config' | 'logger' | 'metrics'>,
  options: AuthenticateOptions = {},
): RequestHandler {
  const { config, logger } = deps;
  const surface = options.surface ?? 'public';
  const audience = surface === 'internal' ? config.internalAuthAudience : config.authAudience;
  const allowMissingAudience = surface === 'public' && config.authAllowMissingAudience;
  const server = options.authorizationServer ?? createAuthorizationServer(config, logger);
  const acceptsJwt = config.authTokenTypes.includes('jwt');
  const acceptsOpaque = config.authTokenTypes.includes('opaque');
  const verifyJwt = server.signingKeys && createJwtVerifier(config, server.signingKeys, audience);
  const introspect = acceptsOpaque
    ? createIntrospector(config, server.endpoints, {
        timeoutMs: options.introspectionTimeoutMs,
        audience,
        allowMissingAudience,
      })
    : undefined;

  logger.info(
    {
      surface,
      issuer: config.authIssuer,
      audience,
      ...(acceptsOpaque && surface === 'public' && { allowMissingAudience }),
      tokenTypes: config.authTokenTypes,
      ...(acceptsJwt && {
        algorithms: config.authAlgorithms,
        jwksUri: config.authJwksUri ?? `from discovery (${server.endpoints.discoveryUrl})`,
      }),
      ...(acceptsOpaque && {
        introspectionEndpoint: config.authIntrospectionUrl ?? `from discovery (${server.endpoints.discoveryUrl})`,
      }),
    },
    'authentication settings in effect',
  );

  return async (req, res, next) => {
    const header = req.headers.authorization;
    if (header === undefined || header.trim() === '') throw missingToken();
    // Another scheme (Basic, …) means no bearer credentials were presented: a challenge without `error`.
    if (!/^Bearer(\s|$)/i.test(header)) throw missingToken();
    const match = BEARER.exec(header);
    if (!match || match[1].length > MAX_TOKEN_LENGTH) throw malformedAuthorization();
    const token = match[1];
    // With JWTs accepted, a JWT-shaped token is verified locally and never introspected (docs/architecture.md §R.1);
    // with opaque tokens only, every token goes to introspection (the AS decides what it issued).
    const kind = verifyJwt && looksLikeJwt(token) ? 'jwt' : 'opaque';
    try {
      if (kind === 'jwt') req.principal = await verifyJwt!(req, res);
      else if (introspect) req.principal = await introspect(token);
      else throw invalidToken({ rule: 'token_kind', expected: [...config.authTokenTypes], got: 'opaque' });
    } catch (error) {
      const refusal = isAppError(error) ? refusalOf(error) : undefined;
      if (refusal) {
        deps.metrics?.tokenRefused(refusal.rule);
        (req.log ?? logger).debug(
          {
            surface,
            tokenKind: kind,
            rule: refusal.rule,
            expected: refusal.expected,
            got: refusal.got,
            ...(isAppError(error) && error.status >= 500 && { cause: errorChain(error.cause) }),
            requestId: req.requestId,
          },
          `access token refused: ${refusal.rule}`,
        );
      }
      throw error;
    }
    next();
  };
}
