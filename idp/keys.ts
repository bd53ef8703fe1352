/**
 * Signing and cookie keys: generating and checking private JWKS, the algorithm each key signs with, and the cookie
 * keys shared through the store. Which signing keys an issuer uses is signing-keys.ts's job.
 */
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import type { IdpStore } from './adapters/store.js';
import { idpError } from './errors.js';

export interface PrivateJwks {
  keys: JWK[];
}

/** A fresh private signing key for `alg`, its `kid` the key's thumbprint. */
export async function generateKey(alg: 'RS256' | 'ES256'): Promise<JWK> {
  const { privateKey } = await generateKeyPair(alg, {
    extractable: true,
    ...(alg === 'RS256' ? { modulusLength: 2048 } : {}),
  });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: await calculateJwkThumbprint(jwk), alg, use: 'sig' };
}

/** A fresh RS256 key then a fresh ES256 key (RS256 signs unless a client asks for ES256). */
export async function generateSigningJwks(): Promise<PrivateJwks> {
  return { keys: await Promise.all([generateKey('RS256'), generateKey('ES256')]) };
}

/** The JWS algorithm a key signs with. */
export function keyAlgorithm(key: JWK): string {
  if (key.alg) return key.alg;
  if (key.kty === 'RSA') return 'RS256';
  if (key.kty === 'OKP') return 'EdDSA';
  return { 'P-256': 'ES256', 'P-384': 'ES384', 'P-521': 'ES512' }[key.crv ?? ''] ?? 'ES256';
}

/** Every algorithm the keys can sign with, the default first (what discovery advertises for ID tokens). */
export function signingAlgorithms(jwks: PrivateJwks): string[] {
  return [...new Set(jwks.keys.map(keyAlgorithm))];
}

/**
 * Checks a private JWKS: a non-empty `keys` list of private signing keys with unique `kid`s. Problems complete the
 * name of where the keys came from (`--jwks-file keys.json has a public key …`).
 */
export function checkPrivateJwks(value: unknown): PrivateJwks {
  const keys = (value as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || keys.length === 0)
    throw idpError('invalid_jwks', 'must be a JWKS with a non-empty "keys" list');
  const kids = new Set<string>();
  for (const [i, key] of keys.entries()) {
    const k = key as JWK;
    if (typeof k !== 'object' || k === null || typeof k.kty !== 'string')
      throw idpError('invalid_jwks', `has a key that is not a JWK (key ${i})`);
    if (!('d' in k)) throw idpError('invalid_jwks', `has a public key (key ${i}); a private signing key is needed`);
    if (k.kid !== undefined) {
      if (kids.has(k.kid)) throw idpError('invalid_jwks', `has two keys with kid "${k.kid}"`);
      kids.add(k.kid);
    }
  }
  return { keys: keys as JWK[] };
}

/** Keys for signing oidc-provider's cookies, shared through the store like the signing keys. */
export async function resolveCookieKeys(store: IdpStore): Promise<string[]> {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return store.initState('cookie-keys', [Buffer.from(bytes).toString('base64url')]);
}

/** The JWS algorithm of the first signing key: what ID tokens and JWT access tokens are signed with. */
export function signingAlgorithm(jwks: PrivateJwks): string {
  return keyAlgorithm(jwks.keys[0]);
}
