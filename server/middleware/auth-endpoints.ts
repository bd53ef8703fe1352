/**
 * Where the authorization server's JWKS and introspection endpoint live: the configured URLs, else the
 * issuer's discovery document (`/.well-known/openid-configuration`, OpenID Connect Discovery §4), fetched
 * lazily once. A failed fetch is retried after a short pause and reported as 503 meanwhile.
 */
import type { Logger } from '../../lib/logger.js';
import { authUnavailable } from './bearer-errors.js';
import type { ServiceConfig } from '../config.js';

const DISCOVERY_TIMEOUT_MS = 5000;
const FAILURE_PAUSE_MS = 2000;

interface Discovered {
  jwks_uri?: unknown;
  introspection_endpoint?: unknown;
}

export interface AuthEndpoints {
  /** Where the issuer's discovery document is read (used only for what is not configured). */
  discoveryUrl: string;
  jwksUri(): Promise<string>;
  introspectionEndpoint(): Promise<string>;
}

export function createAuthEndpoints(config: ServiceConfig, logger?: Pick<Logger, 'info'>): AuthEndpoints {
  let discovered: Promise<Discovered> | undefined;
  let failedAt = 0;
  const url = `${config.authIssuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  const unreachable = (cause?: unknown) => authUnavailable({ rule: 'discovery_unreachable', expected: url }, cause);

  async function fetchDiscovery(): Promise<Discovered> {
    const res = await fetch(url, {
      signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS),
      headers: { accept: 'application/json' },
    });
    if (!res.ok) throw new Error(`discovery answered ${res.status}`);
    const body: unknown = await res.json();
    if (typeof body !== 'object' || body === null) throw new Error('discovery document is not an object');
    const { jwks_uri: jwksUri, introspection_endpoint: introspectionEndpoint } = body as Discovered;
    logger?.info({ discoveryUrl: url, jwksUri, introspectionEndpoint }, 'authorization server discovered');
    return body;
  }

  function discovery(): Promise<Discovered> {
    if (!discovered) {
      if (Date.now() - failedAt < FAILURE_PAUSE_MS) return Promise.reject(unreachable());
      discovered = fetchDiscovery().catch((err: unknown) => {
        discovered = undefined;
        failedAt = Date.now();
        throw unreachable(err);
      });
    }
    return discovered;
  }

  async function endpoint(configured: string | undefined, member: keyof Discovered): Promise<string> {
    if (configured) return configured;
    const value = (await discovery())[member];
    if (typeof value !== 'string' || !/^https?:\/\//.test(value)) {
      throw unreachable(new Error(`discovery document has no usable ${member}`));
    }
    return value;
  }

  return {
    discoveryUrl: url,
    jwksUri: () => endpoint(config.authJwksUri, 'jwks_uri'),
    introspectionEndpoint: () => endpoint(config.authIntrospectionUrl, 'introspection_endpoint'),
  };
}
