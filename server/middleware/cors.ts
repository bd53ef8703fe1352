/**
 * CORS for browsers calling the public API (docs/architecture.md §1.10, CORS_ALLOWED_ORIGINS): a request from a listed origin
 * (exact match: scheme, host and port) gets `Access-Control-Allow-Origin` with that origin — never `*` — and the
 * response headers a client needs exposed; its preflight (`OPTIONS` with `Access-Control-Request-Method`) is
 * answered here, before authentication, since browsers send no token with it. Any other origin gets no CORS
 * header at all, so its browser keeps the answer from the page. No credentials mode: the API takes bearer
 * tokens, not cookies.
 */
import type { RequestHandler } from 'express';

const EXPOSED = 'ETag, RateLimit, RateLimit-Policy, Retry-After, X-Request-Id, Location';
const METHODS = 'GET, POST, PATCH, DELETE';
const HEADERS = 'Authorization, Content-Type, If-Match, Idempotency-Key, X-Request-Id';
/** How long a browser may reuse a preflight answer. */
const MAX_AGE_S = '600';

/** Why `origin` cannot be listed (an origin is scheme://host[:port], nothing more); undefined when it can. */
export function originProblem(origin: string): string | undefined {
  if (origin === '*') return 'CORS_ALLOWED_ORIGINS: "*" is not allowed; list the origins';
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return `CORS_ALLOWED_ORIGINS: "${origin}" is not an origin (scheme://host[:port])`;
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.origin !== origin)
    return `CORS_ALLOWED_ORIGINS: "${origin}" is not an origin (scheme://host[:port], no path or trailing slash)`;
  return undefined;
}

export function cors(allowedOrigins: readonly string[]): RequestHandler {
  const allowed = new Set(allowedOrigins);
  return (req, res, next) => {
    if (allowed.size === 0) {
      next();
      return;
    }
    // The answer depends on the origin, even when it carries no CORS header: caches must keep them apart.
    res.vary('Origin');
    const origin = req.get('origin');
    if (origin === undefined || !allowed.has(origin)) {
      next();
      return;
    }
    res.setHeader('Access-Control-Allow-Origin', origin);
    if (req.method === 'OPTIONS' && req.get('access-control-request-method') !== undefined) {
      res.setHeader('Access-Control-Allow-Methods', METHODS);
      res.setHeader('Access-Control-Allow-Headers', HEADERS);
      res.setHeader('Access-Control-Max-Age', MAX_AGE_S);
      res.status(204).end();
      return;
    }
    res.setHeader('Access-Control-Expose-Headers', EXPOSED);
    next();
  };
}
