/**
 * This service's view of its authorization server, shared by a listener's authentication and its readiness: the
 * endpoints (configured or discovered), the signing keys it fetched, and `check()` — whether the tokens it accepts
 * can be verified now: JWTs while a fetched key is still usable or the JWKS can be fetched, opaque tokens while the
 * introspection endpoint answers. A failed check says which part failed and keeps its cause for the log.
 */
import type { Logger } from '../../lib/logger.js';
import type { ServiceConfig } from '../config.js';
import { createAuthEndpoints, type AuthEndpoints } from './auth-endpoints.js';
import { createSigningKeys, type SigningKeys } from './signing-keys.js';
import { introspectionAnswers } from './token-introspection.js';

/** Readiness checks of the same listener within this long share one look at the authorization server. */
const CHECK_REUSE_MS = 2000;

type AuthorizationServerCheck =
  | { status: 'ok'; keys?: 'cached' | 'fetched'; introspection?: 'reachable' }
  | { status: 'error'; error: string; cause?: unknown };

export interface AuthorizationServer {
  endpoints: AuthEndpoints;
  /** Present when JWTs are accepted. */
  signingKeys?: SigningKeys;
  check(): Promise<AuthorizationServerCheck>;
}

export function createAuthorizationServer(config: ServiceConfig, logger: Logger): AuthorizationServer {
  const endpoints = createAuthEndpoints(config, logger);
  const acceptsJwt = config.authTokenTypes.includes('jwt');
  const acceptsOpaque = config.authTokenTypes.includes('opaque');
  const signingKeys = acceptsJwt ? createSigningKeys(endpoints, logger) : undefined;
  let last: { at: number; check: Promise<AuthorizationServerCheck> } | undefined;

  async function look(): Promise<AuthorizationServerCheck> {
    const ok: AuthorizationServerCheck & { status: 'ok' } = { status: 'ok' };
    try {
      if (signingKeys) {
        if (signingKeys.hasUsableKeys()) ok.keys = 'cached';
        else {
          await signingKeys.fetchKeys();
          ok.keys = 'fetched';
        }
      }
    } catch (cause) {
      return { status: 'error', error: 'the signing keys (JWKS) cannot be fetched and none is cached', cause };
    }
    try {
      if (acceptsOpaque) {
        await introspectionAnswers(config, endpoints);
        ok.introspection = 'reachable';
      }
    } catch (cause) {
      return { status: 'error', error: 'the introspection endpoint does not answer', cause };
    }
    return ok;
  }

  return {
    endpoints,
    signingKeys,
    check() {
      const now = Date.now();
      if (!last || now - last.at > CHECK_REUSE_MS) last = { at: now, check: look() };
      return last.check;
    },
  };
}
