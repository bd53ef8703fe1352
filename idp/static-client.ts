/**
 * The configured client (the seed's client ID, secret, redirect and post-logout redirect URIs). Values not
 * given are generated once per store, so restarts on the same database keep the same client.
 */
import type { ClientMetadata } from 'oidc-provider';
import type { IdpStore } from './adapters/store.js';

export interface StaticClientOptions {
  clientId?: string;
  clientSecret?: string;
  redirectUris?: readonly string[];
  postLogoutRedirectUri?: string;
  publicClient?: boolean;
}

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

export async function resolveStaticClient(options: StaticClientOptions, store: IdpStore): Promise<StaticClient> {
  const generated = await store.initState('generated-client', {
    clientId: `dev-client-${Buffer.from(crypto.getRandomValues(new Uint8Array(4))).toString('hex')}`,
    clientSecret: random(32),
  });
  const redirectUris = [...(options.redirectUris ?? [])];
  const isPublic = options.publicClient ?? false;
  if (isPublic && redirectUris.length === 0) throw new Error('--public-client needs at least one --redirect-uri');
  const grantTypes = [
    ...(redirectUris.length ? ['authorization_code', 'refresh_token'] : []),
    ...(isPublic ? [] : ['client_credentials']),
  ];
  const clientId = options.clientId ?? generated.clientId;
  const clientSecret = isPublic ? undefined : (options.clientSecret ?? generated.clientSecret);
  const postLogoutRedirectUris = options.postLogoutRedirectUri ? [options.postLogoutRedirectUri] : [];
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
