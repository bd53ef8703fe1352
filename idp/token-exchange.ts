/**
 * Token exchange (RFC 8693, `--enable-token-exchange`) for clients whose grant_types allow it: a user's access token
 * from this IdP (opaque or RFC 9068) is exchanged for a new access token for another audience or resource, with the
 * same user and at most the subject token's scopes (narrowed when `scope` asks for fewer, never widened). Impersonation
 * only: an `actor_token` is refused (no delegation, so no `act` claim).
 */
import type Provider from 'oidc-provider';
import { errors, type KoaContextWithOIDC } from 'oidc-provider';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { publicJwks } from './jwt-userinfo.js';
import type { PrivateJwks } from './keys.js';
import type { ResourceServerInfo } from './resource-server.js';

export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

export const TOKEN_EXCHANGE_PARAMETERS = [
  'subject_token',
  'subject_token_type',
  'actor_token',
  'actor_token_type',
  'requested_token_type',
  'audience',
  'resource',
  'scope',
];

export interface TokenExchangeSetup {
  provider: Provider;
  issuer: string;
  jwks: PrivateJwks;
  /** The resource server a token is for (throws invalid_target for one not served), and the default one. */
  resources: { fallback?: string; info(resource: string): ResourceServerInfo };
}

interface Subject {
  accountId: string;
  scope: string[];
}

const words = (value: unknown) => (typeof value === 'string' ? value.split(' ').filter(Boolean) : []);

/** The user and scopes of a subject token this IdP issued and still accepts, or invalid_grant. */
async function readSubject(setup: TokenExchangeSetup, token: string): Promise<Subject> {
  const refused = () => new errors.InvalidGrant('subject_token is not an access token this issuer accepts');
  if (/^[\w-]+\.[\w-]+\.[\w-]+$/.test(token)) {
    try {
      const { payload } = await jwtVerify(token, createLocalJWKSet(publicJwks(setup.jwks)), {
        issuer: setup.issuer,
        typ: 'at+jwt',
        currentDate: new Date(Date.now()),
      });
      if (typeof payload.sub !== 'string' || payload.sub === payload.client_id) throw refused();
      return { accountId: payload.sub, scope: words(payload.scope) };
    } catch {
      throw refused();
    }
  }
  const stored = await setup.provider.AccessToken.find(token);
  if (!stored?.accountId || stored.isExpired) throw refused();
  return { accountId: stored.accountId, scope: words(stored.scope) };
}

export function tokenExchange(setup: TokenExchangeSetup) {
  return async (ctx: KoaContextWithOIDC): Promise<void> => {
    const params = ctx.oidc.params as Record<string, string | undefined>;
    if (!params.subject_token) throw new errors.InvalidRequest('missing required parameter subject_token');
    if (params.subject_token_type !== ACCESS_TOKEN_TYPE)
      throw new errors.InvalidRequest(`subject_token_type must be ${ACCESS_TOKEN_TYPE}`);
    if (params.actor_token) throw new errors.InvalidRequest('actor_token is not supported (impersonation only)');
    if (params.requested_token_type && params.requested_token_type !== ACCESS_TOKEN_TYPE)
      throw new errors.InvalidRequest(`requested_token_type must be ${ACCESS_TOKEN_TYPE}`);

    const subject = await readSubject(setup, params.subject_token);
    const asked = params.scope === undefined ? subject.scope : words(params.scope);
    const wider = asked.filter((s) => !subject.scope.includes(s));
    if (wider.length)
      throw new errors.InvalidScope(`scopes beyond the subject token's are not granted`, wider.join(' '));
    // RFC 8693 §2.1: audience is a logical name, resource a URI; either names the token's resource server here.
    const target = params.resource ?? params.audience ?? setup.resources.fallback;
    const server = target ? setup.resources.info(target) : undefined;

    const { provider } = setup;
    const client = ctx.oidc.client!;
    const grant = new provider.Grant({ accountId: subject.accountId, clientId: client.clientId });
    if (asked.length) grant.addOIDCScope(asked.join(' '));
    if (target && asked.length) grant.addResourceScope(target, asked.join(' '));
    const token = new provider.AccessToken({
      accountId: subject.accountId,
      client,
      grantId: await grant.save(),
      gty: TOKEN_EXCHANGE_GRANT,
      scope: asked.join(' '),
    });
    if (server) token.resourceServer = server as unknown as typeof token.resourceServer;
    ctx.oidc.entity('AccessToken', token);
    const value = await token.save();
    ctx.body = {
      access_token: value,
      issued_token_type: ACCESS_TOKEN_TYPE,
      token_type: token.tokenType,
      expires_in: token.expiration,
      ...(asked.length ? { scope: asked.join(' ') } : {}),
    };
  };
}
