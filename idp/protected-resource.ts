/**
 * RFC 9728 protected resource metadata for each `--resource`: what a resource server (an API, an MCP server)
 * publishes at its own `/.well-known/oauth-protected-resource{path}` so clients find their authorization server. The
 * IdP serves it at that path below the issuer, for the resource server to copy or proxy; `authorization_servers` is
 * this issuer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createDocumentCache, sendCached } from './document-cache.js';

export const PROTECTED_RESOURCE_PREFIX = '/.well-known/oauth-protected-resource';

/** Scopes of OpenID Connect itself, not of a protected resource. */
const IDENTITY_SCOPES = new Set(['openid', 'offline_access', 'profile', 'email', 'phone', 'address']);

/**
 * The metadata's path (RFC 9728 §3.1): the well-known prefix, then the resource identifier's path (without a
 * terminating slash) and query.
 */
export function protectedResourcePath(resource: string): string {
  const url = new URL(resource);
  return `${PROTECTED_RESOURCE_PREFIX}${url.pathname.replace(/\/$/, '')}${url.search}`;
}

/** The metadata document of one resource (RFC 9728 §2). */
function protectedResourceMetadata(
  resource: string,
  issuer: string,
  scopes: readonly string[],
): Record<string, unknown> {
  return {
    resource,
    authorization_servers: [issuer],
    scopes_supported: scopes.filter((s) => !IDENTITY_SCOPES.has(s)),
    bearer_methods_supported: ['header'],
  };
}

/** Serves the metadata of every resource below one issuer; answers whether the path was one of them. */
export function protectedResourceRoutes(
  resources: readonly string[],
  issuer: string,
  scopes: readonly string[],
): (path: string, query: string, req: IncomingMessage, res: ServerResponse) => boolean {
  const cache = createDocumentCache();
  const byPath = new Map(
    resources.map((r) => [protectedResourcePath(r), cache.set(r, protectedResourceMetadata(r, issuer, scopes))]),
  );
  return (path, query, req, res) => {
    if (!path.startsWith(PROTECTED_RESOURCE_PREFIX)) return false;
    const doc = byPath.get(`${path}${query}`);
    if (!doc) {
      res.writeHead(404, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      res.end(
        JSON.stringify({
          error: 'not_found',
          error_description: `no protected resource here; resources: ${resources.join(', ') || 'none (see --resource)'}`,
        }),
      );
      return true;
    }
    sendCached(req, res, doc);
    return true;
  };
}
