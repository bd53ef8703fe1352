/**
 * The console as an OpenID Connect relying party (openid-client v6): authorization code with PKCE (RFC 7636 S256),
 * `state` and `nonce`. The reviewer's scopes are what the authorization server granted: the token response's `scope`
 * (RFC 6749 §5.1), or RFC 7662 introspection of the access token when the response names none.
 */
import * as oidc from 'openid-client';
import type { ConsoleOidcOptions } from './console-oidc-options.js';
import type { Reviewer, SignInTransaction } from './console-session.js';

/** The scopes that open the console (docs/architecture.md §1.2); anything else is denied. */
export const REVIEW_SCOPE = 'gatehouse:review';
export const ADMIN_SCOPE = 'gatehouse:admin';
const REQUESTED_SCOPES = `openid profile ${REVIEW_SCOPE} ${ADMIN_SCOPE}`;

interface SignInResult {
  reviewer: Reviewer;
  /** When the access token stops being valid (epoch ms), if the AS said. */
  expiresAt?: number;
}

export interface ConsoleOidcClient {
  start(returnTo: string): Promise<{ url: URL; transaction: SignInTransaction }>;
  /** Redeems the code of the redirect at `callbackUrl`; throws when any check fails. */
  finish(callbackUrl: URL, transaction: SignInTransaction): Promise<SignInResult>;
}

export function createOidcClient(options: ConsoleOidcOptions): ConsoleOidcClient {
  let configuration: Promise<oidc.Configuration> | undefined;
  const insecure = new URL(options.issuer).protocol === 'http:';

  function config(): Promise<oidc.Configuration> {
    // Discovered once; a failure is not cached, so the next sign-in tries again when the IdP is back.
    configuration ??= oidc
      .discovery(new URL(options.issuer), options.clientId, undefined, oidc.ClientSecretBasic(options.clientSecret), {
        // Plain http only for an http issuer (development IdP on loopback); https issuers stay https-only.
        ...(insecure && { execute: [oidc.allowInsecureRequests] }),
      })
      .catch((error: unknown) => {
        configuration = undefined;
        throw error;
      });
    return configuration;
  }

  return {
    async start(returnTo) {
      const transaction: SignInTransaction = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        codeVerifier: oidc.randomPKCECodeVerifier(),
        returnTo,
      };
      const url = oidc.buildAuthorizationUrl(await config(), {
        redirect_uri: options.redirectUri,
        scope: REQUESTED_SCOPES,
        code_challenge: await oidc.calculatePKCECodeChallenge(transaction.codeVerifier),
        code_challenge_method: 'S256',
        state: transaction.state,
        nonce: transaction.nonce,
        ...(options.resource !== undefined && { resource: options.resource }),
      });
      return { url, transaction };
    },
    async finish(callbackUrl, transaction) {
      const cfg = await config();
      const tokens = await oidc.authorizationCodeGrant(cfg, callbackUrl, {
        pkceCodeVerifier: transaction.codeVerifier,
        expectedState: transaction.state,
        expectedNonce: transaction.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new Error('the token response carries no ID token');
      // The token response comes straight from the authorization server over the back channel, so its `scope`
      // (RFC 6749 §5.1) is the granted scope. Only when it is absent do we ask introspection — which also cannot
      // answer for JWT access tokens at oidc-provider ("structured tokens cannot be introspected").
      const granted = typeof tokens.scope === 'string' ? tokens.scope : undefined;
      const { scopes, expiresAt } =
        granted !== undefined
          ? {
              scopes: granted.split(' ').filter(Boolean),
              expiresAt: typeof tokens.expires_in === 'number' ? Date.now() + tokens.expires_in * 1000 : undefined,
            }
          : await scopesByIntrospection(cfg, tokens.access_token, claims.sub, options.resource);
      const name = typeof claims.name === 'string' ? claims.name : undefined;
      return {
        reviewer: { sub: claims.sub, ...(name !== undefined && { name }), scopes },
        ...(expiresAt !== undefined && { expiresAt }),
      };
    },
  };
}

/** The access token's scopes and expiry by RFC 7662 introspection, checking subject and audience. */
async function scopesByIntrospection(
  cfg: oidc.Configuration,
  accessToken: string,
  sub: string,
  resource: string | undefined,
): Promise<{ scopes: string[]; expiresAt?: number }> {
  const introspection = await oidc.tokenIntrospection(cfg, accessToken);
  if (introspection.active !== true) throw new Error('the access token is not active');
  // The access token must be the signed-in user's, and (with a resource) meant for us.
  if (introspection.sub !== undefined && introspection.sub !== sub)
    throw new Error('the access token belongs to another subject');
  if (resource !== undefined) {
    const aud = introspection.aud;
    const audiences = Array.isArray(aud) ? aud : aud === undefined ? [] : [aud];
    if (!audiences.includes(resource)) throw new Error('the access token is not meant for the console');
  }
  return {
    scopes: typeof introspection.scope === 'string' ? introspection.scope.split(' ').filter(Boolean) : [],
    ...(typeof introspection.exp === 'number' && { expiresAt: introspection.exp * 1000 }),
  };
}
