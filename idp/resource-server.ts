/**
 * Resource indicators (RFC 8707) and access-token format. A requested resource is a resource server holding all
 * configured scopes: any resource, or with `--resource` only those (and the default audience; others are
 * `invalid_target`); with `--access-token-format jwt` its tokens are RFC 9068 JWTs
 * (`typ: at+jwt`) whose `aud` is the resource, else `--default-audience`, else the issuer — a JWT access token
 * needs an audience, so with `jwt` a token is never left userinfo-only (`/me` accepts them through jwt-userinfo.ts).
 */
import { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { AccountDirectory } from './accounts.js';
import { releasedClaims, type ClaimsMapping } from './claims.js';
import type { Personality } from './personalities/personality.js';
import type { IdpConfig } from './settings.js';

export interface ResourceServerOptions {
  config: Pick<IdpConfig, 'scopes' | 'accessTokenFormat' | 'defaultAudience' | 'resources'>;
  issuer: string;
  signingAlg: string;
  accounts: AccountDirectory;
  claims: ClaimsMapping;
}

/** What a resource server is to oidc-provider (its ResourceServer's shape). */
export interface ResourceServerInfo {
  scope: string;
  audience: string;
  accessTokenFormat: IdpConfig['accessTokenFormat'];
  jwt?: { sign: { alg: string } };
}

/**
 * The resources tokens may be for: the default (`--default-audience`, else the issuer for JWT access tokens) and,
 * with `--resource`, only those listed and the default; `info` throws `invalid_target` for any other.
 */
export function resourceServers(options: ResourceServerOptions) {
  const { scopes, accessTokenFormat, defaultAudience, resources } = options.config;
  const fallback = defaultAudience ?? (accessTokenFormat === 'jwt' ? options.issuer : undefined);
  const known = new Set([...resources, ...(fallback ? [fallback] : [])]);
  return {
    fallback,
    info(resource: string): ResourceServerInfo {
      if (resources.length && !known.has(resource))
        throw new errors.InvalidTarget(
          `resource ${resource} is not served here (--resource lists ${resources.join(', ')})`,
        );
      return {
        scope: scopes.join(' '),
        audience: resource,
        accessTokenFormat,
        ...(accessTokenFormat === 'jwt' ? { jwt: { sign: { alg: options.signingAlg } } } : {}),
      };
    },
  };
}

export function resourceIndicators(
  options: ResourceServerOptions,
): NonNullable<Configuration['features']>['resourceIndicators'] {
  const servers = resourceServers(options);
  return {
    enabled: true,
    defaultResource: async (_ctx: KoaContextWithOIDC, _client: unknown, oneOf?: string | string[]) =>
      oneOf ?? servers.fallback,
    // The resource granted at /auth is the one the code's tokens are for, without repeating it at /token.
    useGrantedResource: async () => true,
    getResourceServerInfo: async (_ctx: KoaContextWithOIDC, resource: string) => servers.info(resource),
  } as NonNullable<Configuration['features']>['resourceIndicators'];
}

/** Identity claims in JWT access tokens (RFC 9068 §2.2.1), as the token's scopes release them. */
export function extraTokenClaims(
  options: ResourceServerOptions & { personality?: Personality },
): NonNullable<Configuration['extraTokenClaims']> {
  return async (_ctx, token) => {
    if (options.config.accessTokenFormat !== 'jwt') return undefined;
    const scope = typeof token.scope === 'string' ? token.scope.split(' ') : [];
    const accountId = 'accountId' in token && typeof token.accountId === 'string' ? token.accountId : undefined;
    const user = accountId ? options.accounts.lookup(accountId) : undefined;
    if (accountId && !user) return undefined;
    // The provider's own claims (a personality's), then the identity claims the scopes release.
    const shaped = options.personality?.accessTokenClaims({
      user,
      clientId: token.clientId ?? '',
      scopes: scope,
      issuer: options.issuer,
    });
    const released = user ? releasedClaims(user, scope, options.claims) : undefined;
    return shaped || released ? { ...shaped, ...released } : undefined;
  };
}
