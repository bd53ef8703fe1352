/**
 * Tokens from the stub IdP for the demo and for tests: a user token through a headless authorization code +
 * PKCE flow (the IdP runs with --skip-prompt, so following its redirects with a cookie jar logs `login_hint`
 * in), and a machine token through client credentials. openid-client is the relying party.
 */
import * as oidc from 'openid-client';

export interface TokenRequest {
  issuer: string;
  clientId: string;
  clientSecret: string;
  scope: string;
  /** The resource (RFC 8707) the token is for: the service's audience. */
  resource: string;
}

async function configuration(request: TokenRequest): Promise<oidc.Configuration> {
  const url = new URL(request.issuer);
  const insecure = url.protocol === 'http:';
  return oidc.discovery(url, request.clientId, undefined, oidc.ClientSecretBasic(request.clientSecret), {
    execute: insecure ? [oidc.allowInsecureRequests] : [],
  });
}

/** Follows the IdP's redirects (carrying its cookies) until one points at `redirectUri`; returns that URL. */
async function followToRedirectUri(start: URL, redirectUri: string, maxHops = 10): Promise<URL> {
  const jar = new Map<string, string>();
  let url = start;
  for (let hop = 0; hop < maxHops; hop += 1) {
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq > 0) jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    const location = response.headers.get('location');
    if (!location) {
      throw new Error(
        `the IdP answered ${response.status} at ${url.pathname} instead of redirecting (is it running with --skip-prompt?)`,
      );
    }
    const next = new URL(location, url);
    if (next.href.startsWith(redirectUri)) return next;
    url = next;
  }
  throw new Error(`no redirect to ${redirectUri} after ${maxHops} hops`);
}

/** A user's access token via authorization code + PKCE, logged in headlessly as `loginHint`. */
export async function userToken(request: TokenRequest & { redirectUri: string; loginHint: string }): Promise<string> {
  const config = await configuration(request);
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const authorizationUrl = oidc.buildAuthorizationUrl(config, {
    redirect_uri: request.redirectUri,
    scope: `openid ${request.scope}`,
    resource: request.resource,
    login_hint: request.loginHint,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  const callback = await followToRedirectUri(authorizationUrl, request.redirectUri);
  const tokens = await oidc.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: verifier,
    expectedState: state,
  });
  return tokens.access_token;
}

/** The client's own access token via client credentials. */
export async function machineToken(request: TokenRequest): Promise<string> {
  const config = await configuration(request);
  const tokens = await oidc.clientCredentialsGrant(config, { scope: request.scope, resource: request.resource });
  return tokens.access_token;
}
