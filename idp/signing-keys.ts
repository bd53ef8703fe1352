/**
 * Which keys an issuer signs with. Stable keys matter (docs/architecture.md §R.20): `jwks` or `--jwks-file` win; otherwise an RSA
 * key (RS256, what most relying-party libraries default to) and an EC P-256 key (ES256, for clients that choose it
 * through `id_token_signed_response_alg`) are generated once and kept in the store, so every instance on one database
 * (and every restart) signs with them. The first key is the default signing key.
 */
import type { IdpStore } from './adapters/store.js';
import { generateKey, generateSigningJwks, keyAlgorithm, type PrivateJwks } from './keys.js';
import type { IdpConfig } from './settings.js';

/** The private JWKS to sign with: given keys, else the file, else the store's (generated once). */
export async function resolveSigningKeys(
  config: Pick<IdpConfig, 'jwks' | 'jwksFile' | 'saveJwks'>,
  store: IdpStore,
): Promise<PrivateJwks> {
  if (config.jwks) return config.jwks;
  if (config.jwksFile) {
    // Loaded on demand: runtimes without a file system (the edge worker) pass keys, not files.
    const { loadOrCreateJwksFile } = await import('./jwks-file.js');
    return loadOrCreateJwksFile(config.jwksFile, config.saveJwks);
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
