/**
 * The relying party of the IdP tests: openid-client v6 (allowInsecureRequests: the IdP is on loopback http),
 * plus the browser that walks the IdP's redirects and pages.
 */
import * as oidc from 'openid-client';
import type { RunningIdp } from '../../../idp/create-idp.js';
import { Browser } from './browser.js';

export const insecure = { execute: [oidc.allowInsecureRequests] };

/**
 * client_credentials at the IdP's /token with openid-client (client_secret_basic): `token`, or the OAuth error code
 * (`invalid_client` for a refused secret).
 */
export async function clientCredentialsWith(issuer: string, clientId: string, secret: string): Promise<string> {
  const config = await oidc.discovery(new URL(issuer), clientId, secret, oidc.ClientSecretBasic(secret), insecure);
  try {
    const tokens = await oidc.clientCredentialsGrant(config);
    return tokens.access_token ? 'token' : 'no token';
  } catch (error) {
    // A 401 comes as a WWW-Authenticate challenge, its error among the challenge's parameters.
    const challenge = (error as { cause?: { parameters?: { error?: string } }[] }).cause;
    return (
      (error as { error?: string }).error ??
      (Array.isArray(challenge) ? challenge[0]?.parameters?.error : undefined) ??
      (error as Error).message
    );
  }
}

export async function discover(
  idp: RunningIdp,
  clientId?: string,
  secret?: string,
  auth?: oidc.ClientAuth,
): Promise<oidc.Configuration> {
  return oidc.discovery(
    new URL(idp.issuer),
    clientId ?? idp.client.clientId,
    secret ?? idp.client.clientSecret,
    auth ??
      ((secret ?? idp.client.clientSecret) ? oidc.ClientSecretPost(secret ?? idp.client.clientSecret) : oidc.None()),
    insecure,
  );
}

export interface CodeFlow {
  browser: Browser;
  tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers;
  callback: URL;
}

export interface AuthorizeParams {
  redirectUri?: string;
  scope?: string;
  loginHint?: string;
  resource?: string;
  extra?: Record<string, string>;
}

export function authorizationRequest(config: oidc.Configuration, idp: RunningIdp, params: AuthorizeParams) {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  return {
    verifier,
    state,
    nonce,
    async url(): Promise<URL> {
      return oidc.buildAuthorizationUrl(config, {
        redirect_uri: params.redirectUri ?? idp.client.redirectUris[0],
        scope: params.scope ?? 'openid',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        nonce,
        ...(params.loginHint ? { login_hint: params.loginHint } : {}),
        ...(params.resource ? { resource: params.resource } : {}),
        ...params.extra,
      });
    },
  };
}

/** Exchanges the code the browser landed with (PKCE, state and nonce checked by openid-client). */
export async function exchange(
  config: oidc.Configuration,
  callback: string,
  request: { verifier: string; state: string; nonce: string },
) {
  return oidc.authorizationCodeGrant(config, new URL(callback), {
    pkceCodeVerifier: request.verifier,
    expectedState: request.state,
    expectedNonce: request.nonce,
    idTokenExpected: true,
  });
}

/** Authorization code + PKCE under --skip-prompt: redirects only, no page. */
export async function headlessLogin(
  config: oidc.Configuration,
  idp: RunningIdp,
  params: AuthorizeParams = {},
  browser = new Browser(new URL(idp.url).origin),
): Promise<CodeFlow> {
  const request = authorizationRequest(config, idp, params);
  const landed = await browser.go((await request.url()).href);
  if (landed.status !== 0)
    throw new Error(
      `expected a redirect to the client, got ${landed.status} at ${landed.url}: ${landed.html?.slice(0, 300)}`,
    );
  const tokens = await exchange(config, landed.url, request);
  return { browser, tokens, callback: new URL(landed.url) };
}
