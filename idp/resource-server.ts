/**
 * Resource indicators (RFC 8707) and access-token format. Every requested resource is accepted as a resource
 * server holding all configured scopes; with `--access-token-format jwt` its tokens are RFC 9068 JWTs
 * (`typ: at+jwt`) whose `aud` is the resource, else `--default-audience`, else the issuer — a JWT access token
 * needs an audience, so with `jwt` a token is never left userinfo-only (`/me` accepts them through jwt-userinfo.ts).
 */
import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import type { AccountDirectory } from './accounts.js';
import { releasedClaims, type ClaimsMapping } from './claims.js';
import type { IdpConfig } from './settings.js';

export interface ResourceServerOptions {
  config: Pick<IdpConfig, 'scopes' | 'accessTokenFormat' | 'defaultAudience'>;
  issuer: string;
  signingAlg: string;
  accounts: AccountDirectory;
  claims: ClaimsMapping;
}

export function resourceIndicators(
  options: ResourceServerOptions,
): NonNullable<Configuration['features']>['resourceIndicators'] {
  const { scopes, accessTokenFormat, defaultAudience } = options.config;
  const fallback = defaultAudience ?? (accessTokenFormat === 'jwt' ? options.issuer : undefined);
  return {
    enabled: true,
    defaultResource: async (_ctx: KoaContextWithOIDC, _client: unknown, oneOf?: string | string[]) => oneOf ?? fallback,
    // The resource granted at /auth is the one the code's tokens are for, without repeating it at /token.
    useGrantedResource: async () => true,
    getResourceServerInfo: async (_ctx: KoaContextWithOIDC, resource: string) => ({
      scope: scopes.join(' '),
      audience: resource,
      accessTokenFormat,
      ...(accessTokenFormat === 'jwt' ? { jwt: { sign: { alg: options.signingAlg } } } : {}),
    }),
  } as NonNullable<Configuration['features']>['resourceIndicators'];
}

/** Identity claims in JWT access tokens (RFC 9068 §2.2.1), as the token's scopes release them. */
export function extraTokenClaims(options: ResourceServerOptions): NonNullable<Configuration['extraTokenClaims']> {
  return async (_ctx, token) => {
    if (options.config.accessTokenFormat !== 'jwt' || !('accountId' in token) || typeof token.accountId !== 'string')
      return undefined;
    const user = options.accounts.lookup(token.accountId);
    if (!user) return undefined;
    const scope = typeof token.scope === 'string' ? token.scope.split(' ') : [];
    return releasedClaims(user, scope, options.claims);
  };
}
