/**
 * Signing and cookie keys. Stable keys matter (research §8.4): `--jwks-file` wins; otherwise an RSA key (RS256, what
 * most relying-party libraries default to) and an EC P-256 key (ES256, for clients that choose it through
 * `id_token_signed_response_alg`) are generated once and kept in the store, so every instance on one database (and
 * every restart) signs with them. The first key is the default signing key.
 */
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import type { IdpStore } from './adapters/store.js';

export interface PrivateJwks {
  keys: JWK[];
}

async function generateKey(alg: 'RS256' | 'ES256'): Promise<JWK> {
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

/** Validates a private JWKS: a non-empty `keys` list of private signing keys with unique `kid`s. */
export function checkPrivateJwks(value: unknown, source: string): PrivateJwks {
  const keys = (value as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || keys.length === 0)
    throw new Error(`${source} must be a JWKS with a non-empty "keys" list`);
  const kids = new Set<string>();
  for (const [i, key] of keys.entries()) {
    const k = key as JWK;
    if (typeof k !== 'object' || k === null || typeof k.kty !== 'string')
      throw new Error(`${source}: key ${i} is not a JWK`);
    if (!('d' in k)) throw new Error(`${source}: key ${i} is a public key; a private signing key is needed`);
    if (k.kid !== undefined) {
      if (kids.has(k.kid)) throw new Error(`${source}: duplicate kid "${k.kid}"`);
      kids.add(k.kid);
    }
  }
  return { keys: keys as JWK[] };
}

export interface KeySource {
  jwks?: PrivateJwks;
  jwksFile?: string;
  saveJwks?: boolean;
}

/** The private JWKS to sign with: given keys, else the file, else the store's (generated once). */
export async function resolveSigningKeys(source: KeySource, store: IdpStore): Promise<PrivateJwks> {
  if (source.jwks) return checkPrivateJwks(source.jwks, 'jwks option');
  if (source.jwksFile) {
    // Loaded on demand: runtimes without a file system (the edge worker) pass keys, not files.
    const { loadOrCreateJwksFile } = await import('./jwks-file.js');
    return loadOrCreateJwksFile(source.jwksFile, source.saveJwks ?? false);
  }
  const jwks = await store.initState('jwks', await generateSigningJwks());
  return isEs256OnlyFromEarlierVersion(jwks) ? withSharedRsaKey(jwks, store) : jwks;
}

/**
 * Keys an earlier version generated into the store: one EC P-256 key, nothing else. Clients asking for RS256 were
 * refused with them, and a store keeps its keys across upgrades, so such a database never got the RSA key.
 */
function isEs256OnlyFromEarlierVersion(jwks: PrivateJwks): boolean {
  return jwks.keys.length === 1 && jwks.keys[0].kty === 'EC' && keyAlgorithm(jwks.keys[0]) === 'ES256';
}

/**
 * The stored ES256 key (still the default, so tokens and relying parties keep working) plus an RS256 key made once
 * for the whole database: a state record of its own, written only if absent, so every instance adds the same one.
 */
async function withSharedRsaKey(jwks: PrivateJwks, store: IdpStore): Promise<PrivateJwks> {
  const rsa = await store.initState<PrivateJwks>('jwks-rs256-added', { keys: [await generateKey('RS256')] });
  return { keys: [...jwks.keys, ...rsa.keys] };
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
