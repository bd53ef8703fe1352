/**
 * The configured client (the seed's client ID, secret, redirect and post-logout redirect URIs). Values not
 * given are generated once per store, so restarts on the same database keep the same client.
 */
import type { ClientMetadata } from 'oidc-provider';
import type { IdpStore } from './adapters/store.js';
import { DEVICE_CODE_GRANT } from './device-flow.js';
import { TOKEN_EXCHANGE_GRANT } from './token-exchange.js';
import type { IdpConfig } from './settings.js';

export interface StaticClient {
  clientId: string;
  /** undefined for a public client. */
  clientSecret?: string;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  grantTypes: string[];
  metadata: ClientMetadata;
}

function random(bytes: number): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('base64url');
}

/** The configured client (a public client has at least one redirect URI: idp/settings.ts checks it). */
export async function resolveStaticClient(
  config: Pick<
    IdpConfig,
    | 'clientId'
    | 'clientSecret'
    | 'redirectUris'
    | 'postLogoutRedirectUri'
    | 'publicClient'
    | 'enableTokenExchange'
    | 'enableDeviceFlow'
  >,
  store: IdpStore,
): Promise<StaticClient> {
  const generated = await store.initState('generated-client', {
    clientId: `dev-client-${Buffer.from(crypto.getRandomValues(new Uint8Array(4))).toString('hex')}`,
    clientSecret: random(32),
  });
  const redirectUris = [...config.redirectUris];
  const isPublic = config.publicClient;
  const grantTypes = [
    ...(redirectUris.length ? ['authorization_code', 'refresh_token'] : []),
    ...(isPublic ? [] : ['client_credentials']),
    ...(config.enableDeviceFlow ? [DEVICE_CODE_GRANT] : []),
    ...(config.enableTokenExchange ? [TOKEN_EXCHANGE_GRANT] : []),
  ];
  const clientId = config.clientId ?? generated.clientId;
  const clientSecret = isPublic ? undefined : (config.clientSecret ?? generated.clientSecret);
  const postLogoutRedirectUris = config.postLogoutRedirectUri ? [config.postLogoutRedirectUri] : [];
  const metadata: ClientMetadata = {
    client_id: clientId,
    ...(clientSecret ? { client_secret: clientSecret } : {}),
    redirect_uris: redirectUris,
    post_logout_redirect_uris: postLogoutRedirectUris,
    response_types: redirectUris.length ? ['code'] : [],
    grant_types: grantTypes,
    token_endpoint_auth_method: isPublic ? 'none' : 'client_secret_basic',
  };
  return { clientId, clientSecret, redirectUris, postLogoutRedirectUris, grantTypes, metadata };
}
