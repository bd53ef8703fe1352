/**
 * The authorization server's signing keys by `kid`, fetched with jwks-rsa (cache on, rate limit on, 5 s
 * timeout: docs/architecture.md §R.5) and kept here as ready `KeyObject`s so a verification never re-parses a PEM.
 * jwks-rsa failures are mapped per docs/architecture.md §R.6: unknown kid or a refetch flood → invalid token (401);
 * JWKS endpoint down or unusable → 503.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import jwksRsa from 'jwks-rsa';
import type { Logger } from '../../lib/logger.js';
import { repeatLimited } from '../../lib/repeat-limited.js';
import type { AuthEndpoints } from './auth-endpoints.js';
import { authUnavailable, invalidToken } from './bearer-errors.js';

const KEY_TTL_MS = 10 * 60 * 1000;
const MAX_KEYS = 16;
const JWKS_TIMEOUT_MS = 5000;
const JWKS_REQUESTS_PER_MINUTE = 10;

interface CachedKey {
  key: KeyObject;
  alg?: string;
  expiresAt: number;
}

export interface SigningKeys {
  /** The verification key for a token header; rejects with an AppError (401 or 503). */
  keyFor(kid: string | undefined, alg: string): Promise<KeyObject>;
  /** Whether a key fetched earlier is still usable (tokens keep being verified while the JWKS is down). */
  hasUsableKeys(): boolean;
  /** Fetches the JWKS now (readiness: the keys are fetchable); rejects with a 503 AppError when they are not. */
  fetchKeys(): Promise<void>;
}

function errorName(err: unknown): string {
  return typeof err === 'object' && err !== null ? String((err as { name?: unknown }).name) : '';
}

export function createSigningKeys(endpoints: AuthEndpoints, logger: Logger): SigningKeys {
  const cache = new Map<string, CachedKey>();
  const inFlight = new Map<string, Promise<CachedKey>>();
  let client: jwksRsa.JwksClient | undefined;
  // A flood of unknown kids repeats this warning per request: one line, then one with the count each minute.
  const warnBudgetExhausted = repeatLimited(logger, 'JWKS refetch budget exhausted; refusing tokens with unknown keys');

  async function jwksClient(): Promise<jwksRsa.JwksClient> {
    if (!client) {
      client = new jwksRsa.JwksClient({
        jwksUri: await endpoints.jwksUri(),
        cache: true,
        cacheMaxAge: KEY_TTL_MS,
        rateLimit: true,
        jwksRequestsPerMinute: JWKS_REQUESTS_PER_MINUTE,
        timeout: JWKS_TIMEOUT_MS,
      });
    }
    return client;
  }

  async function load(kid: string | undefined): Promise<CachedKey> {
    const jwks = await jwksClient();
    try {
      const signingKey = await jwks.getSigningKey(kid);
      const alg = (signingKey as { alg?: unknown }).alg;
      return {
        key: createPublicKey(signingKey.getPublicKey()),
        alg: typeof alg === 'string' ? alg : undefined,
        expiresAt: Date.now() + KEY_TTL_MS,
      };
    } catch (err) {
      const name = errorName(err);
      if (name === 'SigningKeyNotFoundError') throw invalidToken({ rule: 'unknown_key', got: kid }, { cause: err });
      if (name === 'JwksRateLimitError') {
        // Most likely a flood of unknown kids: refuse the token, keep the JWKS budget (docs/architecture.md §R.6).
        warnBudgetExhausted();
        throw invalidToken({ rule: 'unknown_key', got: kid }, { cause: err });
      }
      throw authUnavailable({ rule: 'jwks_unreachable', expected: await endpoints.jwksUri() }, err);
    }
  }

  return {
    async keyFor(kid, alg) {
      const id = kid ?? '';
      let entry = cache.get(id);
      if (!entry || entry.expiresAt <= Date.now()) {
        let pending = inFlight.get(id);
        if (!pending) {
          pending = load(kid).finally(() => inFlight.delete(id));
          inFlight.set(id, pending);
        }
        entry = await pending;
        if (cache.size >= MAX_KEYS && !cache.has(id)) cache.delete(cache.keys().next().value as string);
        cache.set(id, entry);
      }
      // A key published for one algorithm must not verify another (RFC 7517 §4.4).
      if (entry.alg !== undefined && entry.alg !== alg)
        throw invalidToken({ rule: 'algorithm', expected: entry.alg, got: alg });
      return entry.key;
    },
    hasUsableKeys() {
      const now = Date.now();
      return [...cache.values()].some((entry) => entry.expiresAt > now);
    },
    async fetchKeys() {
      const jwks = await jwksClient();
      try {
        await jwks.getSigningKeys();
      } catch (err) {
        throw authUnavailable({ rule: 'jwks_unreachable', expected: await endpoints.jwksUri() }, err);
      }
    },
  };
}
