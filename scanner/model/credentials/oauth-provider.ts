/**
 * A credential from an OAuth 2.0 token endpoint (RFC 6749 §4.4 client credentials, §4.3 resource owner password),
 * through openid-client: the issuer's discovery document when `issuer` is given, else the `token_url` as the only
 * endpoint. Renewing asks the token endpoint again (a refresh token when the answer carried one).
 */
import * as client from 'openid-client';
import { scannerError } from '../../errors.js';
import type { CredentialSpec } from '../identity-spec.js';
import { sharedRenewal, type CredentialProvider } from './credential-provider.js';

type OAuthSpec = Extract<CredentialSpec, { kind: 'oauth2' }>;

async function configuration(spec: OAuthSpec): Promise<client.Configuration> {
  const auth = spec.clientSecret ? client.ClientSecretPost(spec.clientSecret) : client.None();
  // Loopback and staging token endpoints are often plain http: allowed, as the user named them.
  const insecure = { execute: [client.allowInsecureRequests] };
  if (spec.issuer) return client.discovery(new URL(spec.issuer), spec.clientId, undefined, auth, insecure);
  const tokenUrl = new URL(spec.tokenUrl!);
  const config = new client.Configuration(
    { issuer: tokenUrl.origin, token_endpoint: tokenUrl.href },
    spec.clientId,
    undefined,
    auth,
  );
  if (tokenUrl.protocol === 'http:') client.allowInsecureRequests(config);
  return config;
}

export function createOAuthProvider(identity: string, spec: OAuthSpec): CredentialProvider {
  let config: client.Configuration | undefined;
  let token: string | undefined;
  let refresh: string | undefined;
  let expires: number | undefined;
  const held = [spec.clientSecret, spec.password].filter((v): v is string => Boolean(v));
  const grant = spec.grant === 'client_credentials' ? 'client credentials' : 'password';
  const describe = `OAuth 2.0 ${grant} grant at ${spec.issuer ?? spec.tokenUrl}`;
  const parameters = (): Record<string, string> => ({
    ...(spec.scope ? { scope: spec.scope } : {}),
    ...(spec.grant === 'password' ? { username: spec.username!, password: spec.password! } : {}),
  });

  async function obtain(): Promise<void> {
    try {
      config ??= await configuration(spec);
      const answer =
        refresh !== undefined
          ? await client.refreshTokenGrant(config, refresh)
          : spec.grant === 'client_credentials'
            ? await client.clientCredentialsGrant(config, parameters())
            : await client.genericGrantRequest(config, 'password', parameters());
      token = answer.access_token;
      held.push(token);
      if (answer.refresh_token) {
        refresh = answer.refresh_token;
        held.push(refresh);
      }
      const seconds = answer.expiresIn();
      expires = seconds === undefined ? undefined : Date.now() + seconds * 1000;
    } catch (error) {
      // A refresh token the server no longer takes: the next renewal asks for a new grant.
      if (refresh !== undefined) {
        refresh = undefined;
        return obtain();
      }
      throw scannerError(
        'invalid_argument',
        `--identity ${identity}: ${describe} failed: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
  }

  return {
    describe,
    start: obtain,
    current: () => token,
    expiresAt: () => expires,
    ...sharedRenewal(obtain),
    secrets: () => [...held],
    learned: () => (spec.username ? { username: spec.username } : {}),
  };
}
