/**
 * `POST /_testing/tokens` (docs/architecture.md §3.4): tokens the provider itself accepts — opaque access and refresh tokens
 * stored through oidc-provider's own models (so `/me` and introspection know them), RFC 9068 access tokens and ID
 * tokens signed with the current keys — or, on request, deliberately bad ones for negative tests: expired
 * (`expiresIn` ≤ 0), not yet valid (`notBefore` > 0), unsigned (`alg: "none"`), or signed with a foreign key
 * (`signWith: "foreign"`).
 */
import { exportJWK, generateKeyPair, importJWK, SignJWT, UnsecuredJWT } from 'jose';
import type { BuiltIdp } from '../app.js';
import { keyAlgorithm } from '../keys.js';
import type { AccessTokenFormat, IdpConfig } from '../settings.js';
import { withClock, nowSeconds, type TestClock } from './clock.js';

export interface MintRequest {
  kind?: 'access' | 'id' | 'refresh';
  /** Default: the default user. */
  sub?: string;
  /** Claims added to the token (and, for access tokens, to what `/me` answers for this sub). */
  claims?: Record<string, unknown>;
  /** Default: "openid" plus the scopes that release the given claims' standard names. */
  scope?: string;
  /** Audience (a resource); with opaque tokens, a token with an audience is not accepted at `/me` (RFC 8707). */
  aud?: string;
  /** Default: the configured client. */
  client_id?: string;
  /** Seconds from now; ≤ 0 mints an already expired token. Default: the provider's lifetime for that kind. */
  expiresIn?: number;
  /** Seconds from now before which the token is not valid (JWTs get `nbf`). */
  notBefore?: number;
  /** "none" mints an unsigned JWT; otherwise one of the algorithms the keys sign with. */
  alg?: string;
  signWith?: 'current' | 'foreign';
}

export interface MintedToken {
  token: string;
  kind: 'access' | 'id' | 'refresh';
  format: AccessTokenFormat;
  expiresAt: number;
}

const LIFETIME = { access: 3600, id: 3600, refresh: 14 * 24 * 3600 };

export class MintError extends Error {}

async function signingKey(
  built: BuiltIdp,
  alg: string | undefined,
  foreign: boolean,
): Promise<{ alg: string; key: Parameters<SignJWT['sign']>[0]; kid?: string }> {
  const wanted = alg ?? keyAlgorithm(built.jwks.keys[0]);
  if (foreign) {
    const { privateKey, publicKey } = await generateKeyPair(wanted, { extractable: true });
    const jwk = await exportJWK(publicKey);
    return { alg: wanted, key: privateKey, kid: `foreign-${(jwk.n ?? jwk.x ?? '').slice(0, 8)}` };
  }
  const jwk = built.jwks.keys.find((k) => keyAlgorithm(k) === wanted);
  if (!jwk)
    throw new MintError(
      `no signing key for alg ${wanted} (the keys sign ${[...new Set(built.jwks.keys.map(keyAlgorithm))].join(', ')})`,
    );
  return { alg: wanted, key: await importJWK(jwk, wanted), kid: jwk.kid };
}

async function mintJwt(
  built: BuiltIdp,
  payload: Record<string, unknown>,
  request: MintRequest,
  typ?: string,
): Promise<string> {
  if (request.alg === 'none') return new UnsecuredJWT(payload).encode();
  const { alg, key, kid } = await signingKey(built, request.alg, request.signWith === 'foreign');
  return new SignJWT(payload).setProtectedHeader({ alg, ...(kid ? { kid } : {}), ...(typ ? { typ } : {}) }).sign(key);
}

function validate(request: MintRequest): void {
  if (request.kind !== undefined && !['access', 'id', 'refresh'].includes(request.kind))
    throw new MintError('kind must be access, id or refresh');
  for (const field of ['expiresIn', 'notBefore'] as const) {
    if (request[field] !== undefined && !Number.isFinite(request[field]))
      throw new MintError(`${field} must be a number of seconds`);
  }
  if (
    request.claims !== undefined &&
    (typeof request.claims !== 'object' || request.claims === null || Array.isArray(request.claims))
  ) {
    throw new MintError('claims must be an object');
  }
  if (request.signWith !== undefined && !['current', 'foreign'].includes(request.signWith))
    throw new MintError('signWith must be current or foreign');
}

export async function mintToken(
  built: BuiltIdp,
  clock: TestClock,
  { accessTokenFormat, defaultAudience }: Pick<IdpConfig, 'accessTokenFormat' | 'defaultAudience'>,
  request: MintRequest,
): Promise<MintedToken> {
  validate(request);
  const kind = request.kind ?? 'access';
  const sub = request.sub ?? built.accounts.defaultUser.sub;
  const clientId = request.client_id ?? built.client.clientId;
  const scope = request.scope ?? 'openid';
  const lifetime = request.expiresIn ?? LIFETIME[kind];
  if (request.claims) built.accounts.override(sub, request.claims);

  return withClock(clock, async () => {
    const now = nowSeconds();
    const expiresAt = now + lifetime;
    // Signature and nbf faults only exist in JWTs; an expired token keeps the provider's format.
    const badJwt = (request.notBefore ?? 0) > 0 || request.alg === 'none' || request.signWith === 'foreign';
    const bad = badJwt || lifetime <= 0;
    const jwtAccess = kind === 'access' && (accessTokenFormat === 'jwt' || badJwt);
    if (kind === 'id' || jwtAccess) {
      const payload: Record<string, unknown> = {
        ...(kind === 'id' ? request.claims : {}),
        iss: built.issuer,
        sub,
        aud: request.aud ?? (kind === 'id' ? clientId : (defaultAudience ?? built.issuer)),
        iat: now,
        exp: expiresAt,
        ...(request.notBefore ? { nbf: now + request.notBefore } : {}),
        ...(kind === 'access' ? { client_id: clientId, scope, jti: crypto.randomUUID(), ...request.claims } : {}),
      };
      const token = await mintJwt(built, payload, request, kind === 'access' ? 'at+jwt' : undefined);
      return { token, kind, format: 'jwt', expiresAt };
    }
    if (kind === 'refresh' && bad) throw new MintError('bad refresh tokens are not minted: any unknown string is one');
    if (lifetime <= 0) {
      // Expired opaque token: issued 60 s before it expired, on a clock moved back that far (the store keeps its expiry).
      const back: TestClock = { offsetSeconds: clock.offsetSeconds + lifetime - 60 };
      const minted = await withClock(back, () =>
        mintToken(built, back, { accessTokenFormat, defaultAudience }, { ...request, expiresIn: 60 }),
      );
      return { ...minted, expiresAt };
    }
    const client = await built.provider.Client.find(clientId);
    if (!client) throw new MintError(`unknown client_id "${clientId}"`);
    const grant = new built.provider.Grant({ accountId: sub, clientId });
    const oidcScopes = scope.split(' ').filter(Boolean);
    grant.addOIDCScope(oidcScopes.join(' '));
    if (request.aud) grant.addResourceScope(request.aud, scope);
    const grantId = await grant.save();
    const common = { accountId: sub, client, grantId, scope, gty: 'authorization_code', expiresIn: lifetime };
    if (kind === 'refresh') {
      const token = await new built.provider.RefreshToken({ ...common, iat: now }).save();
      return { token, kind, format: 'opaque', expiresAt };
    }
    const accessToken = new built.provider.AccessToken(common);
    if (request.aud) accessToken.aud = request.aud;
    const token = await accessToken.save();
    return { token, kind, format: 'opaque', expiresAt };
  });
}
