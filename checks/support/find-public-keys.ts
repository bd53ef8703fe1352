/**
 * Finds the public keys that verify the scanned token, for attacks that need them (jwt.hmac_confusion): a PEM file
 * the user gave (`ctx.options.jwtPublicKeyFile`), else the JWKS published at the target's origin
 * (`/.well-known/jwks.json`, the `jwks_uri` of `/.well-known/openid-configuration`, RFC 8414 / OIDC Discovery) or by
 * the token's issuer (`iss` + `/.well-known/openid-configuration`). Requests carry no credential.
 */
import { readFileSync } from 'node:fs';
import { createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import type { CheckContext, UnverifiedJwt } from '../../scanner/api.js';
import { jsonObject } from './probe-paths.js';

interface Jwk extends JsonWebKey {
  kid?: string;
}

async function getJson(ctx: CheckContext, url: string): Promise<Record<string, unknown> | undefined> {
  try {
    const response = await ctx.http.send({ method: 'GET', url, credential: null, body: null });
    return response.status === 200 ? jsonObject(response.body) : undefined;
  } catch {
    return undefined;
  }
}

function keysOf(jwks: Record<string, unknown> | undefined): Jwk[] {
  return Array.isArray(jwks?.keys) ? (jwks.keys as Jwk[]).filter((k) => k.kty === 'RSA' || k.kty === 'EC') : [];
}

/** The keys matching the token's kid (or every RSA/EC key when none matches), at most three. */
export async function findPublicKeys(ctx: CheckContext, jwt: UnverifiedJwt): Promise<KeyObject[]> {
  const file = ctx.options.jwtPublicKeyFile;
  if (typeof file === 'string' && file !== '') return [createPublicKey(readFileSync(file, 'utf8'))];

  const origin = new URL(ctx.operation.url).origin;
  const sources: (() => Promise<Jwk[]>)[] = [
    async () => keysOf(await getJson(ctx, `${origin}/.well-known/jwks.json`)),
    async () => {
      const config = await getJson(ctx, `${origin}/.well-known/openid-configuration`);
      return typeof config?.jwks_uri === 'string' ? keysOf(await getJson(ctx, config.jwks_uri)) : [];
    },
    async () => {
      const iss =
        typeof jwt.claims?.iss === 'string' && /^https?:\/\//.test(jwt.claims.iss)
          ? jwt.claims.iss.replace(/\/$/, '')
          : undefined;
      if (!iss || new URL(iss).origin === origin) return [];
      const config = await getJson(ctx, `${iss}/.well-known/openid-configuration`);
      return typeof config?.jwks_uri === 'string' ? keysOf(await getJson(ctx, config.jwks_uri)) : [];
    },
  ];
  for (const source of sources) {
    const keys = await source();
    if (keys.length === 0) continue;
    const kid = jwt.header.kid;
    const matching = keys.filter((k) => k.kid !== undefined && k.kid === kid);
    return (matching.length > 0 ? matching : keys).slice(0, 3).map((key) => createPublicKey({ key, format: 'jwk' }));
  }
  return [];
}
