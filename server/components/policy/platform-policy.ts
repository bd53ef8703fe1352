/**
 * The platform's registration rules as data (RFC 9700, RFC 8252, RFC 7591): what every registration must satisfy
 * whatever its policy profile. Capabilities publish this object as it is, so clients can check before submitting.
 */
import { DEVICE_CODE_GRANT } from '../../plans.js';
import { deepFreeze } from '../../../lib/deep-freeze.js';
import type { ApplicationType, ClientType } from '../registrations/registrations.model.js';

export const GRANT_TYPES = [
  'authorization_code',
  'refresh_token',
  'client_credentials',
  DEVICE_CODE_GRANT,
  'implicit',
  'password',
] as const;
export const TOKEN_ENDPOINT_AUTH_METHODS = [
  'none',
  'client_secret_basic',
  'client_secret_post',
  'client_secret_jwt',
  'private_key_jwt',
  'tls_client_auth',
  'self_signed_tls_client_auth',
] as const;

/** Auth methods that prove possession of a key the client registered (`jwks` or `jwksUri`). */
export const KEY_BASED_AUTH_METHODS: readonly string[] = ['private_key_jwt', 'self_signed_tls_client_auth'];

interface ApplicationTypeRule {
  applicationType: ApplicationType;
  grantTypes: readonly string[];
  /** Whether redirect URIs (and post-logout redirect URIs) may be registered at all. */
  redirectUris: boolean;
}

interface ClientTypeRule {
  clientType: ClientType;
  /** Public clients cannot keep a secret (RFC 6749 §2.1): `none` only; confidential clients must authenticate. */
  tokenEndpointAuthMethods: readonly string[];
  /** PKCE is always on for public clients (RFC 9700 §2.1.1). */
  requirePkce: boolean;
  applicationTypes: readonly ApplicationTypeRule[];
}

/*
 * Native apps cannot keep secrets (RFC 8252 §8.5), so they are public; SPAs run in the browser, so they are
 * public; web servers and services keep secrets, so they are confidential.
 */
export const clientTypeRules: readonly ClientTypeRule[] = deepFreeze([
  {
    clientType: 'public',
    tokenEndpointAuthMethods: ['none'],
    requirePkce: true,
    applicationTypes: [
      { applicationType: 'spa', grantTypes: ['authorization_code', 'refresh_token'], redirectUris: true },
      {
        applicationType: 'native',
        grantTypes: ['authorization_code', 'refresh_token', DEVICE_CODE_GRANT],
        redirectUris: true,
      },
    ],
  },
  {
    clientType: 'confidential',
    tokenEndpointAuthMethods: TOKEN_ENDPOINT_AUTH_METHODS.filter((m) => m !== 'none'),
    requirePkce: false,
    applicationTypes: [
      {
        applicationType: 'web',
        grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'],
        redirectUris: true,
      },
      { applicationType: 'service', grantTypes: ['client_credentials'], redirectUris: false },
    ],
  },
]);

export function clientTypeRule(clientType: ClientType): ClientTypeRule | undefined {
  return clientTypeRules.find((r) => r.clientType === clientType);
}

export function applicationTypeRule(
  applicationType: ApplicationType,
): { clientType: ClientType; rule: ApplicationTypeRule } | undefined {
  for (const c of clientTypeRules) {
    const rule = c.applicationTypes.find((a) => a.applicationType === applicationType);
    if (rule) return { clientType: c.clientType, rule };
  }
  return undefined;
}

export const platformPolicy = deepFreeze({
  redirectUris: {
    /** Checked again on submit; the JSON Schema's structural cap (100) stops even drafts. */
    maxCount: 20,
    maxLength: 2048,
    /** RFC 9700 §4.1.3: exact string comparison; the URI must already be in the form it will be matched in. */
    matching: 'exact',
    wildcards: false,
    fragments: false,
    userinfo: false,
    /** https everywhere, except http on loopback IP literals for native apps (RFC 8252 §7.3; `localhost` is NOT RECOMMENDED, §8.3). */
    httpsRequired: true,
    loopbackHttpFor: ['native'] as ApplicationType[],
    loopbackHosts: ['127.0.0.1', '[::1]'],
    /** Reverse-DNS private-use schemes such as `com.example.app:/callback`, native apps only (RFC 8252 §7.1). */
    privateUseSchemesFor: ['native'] as ApplicationType[],
    forbiddenSchemes: ['javascript', 'data', 'vbscript', 'file', 'blob', 'about'],
  },
  postLogoutRedirectUris: { maxCount: 20, maxLength: 2048, rules: 'the same as redirectUris' },
  urls: { maxLength: 2048, httpsRequired: true, fields: ['clientUri', 'logoUri', 'jwksUri'] },
  grantTypes: { forbidden: ['implicit', 'password'], refreshTokenNeeds: ['authorization_code', DEVICE_CODE_GRANT] },
  /** RFC 9700 §2.1.2: no token response types (implicit, hybrid); `code` ↔ `authorization_code` (RFC 7591 §2.1). */
  responseTypes: { allowed: ['code'] },
  pkce: { requiredFor: ['public'] as ClientType[], method: 'S256' },
  tokenEndpointAuthMethod: {
    noneOnlyFor: ['public'] as ClientType[],
    keyBased: KEY_BASED_AUTH_METHODS,
    jwksAndJwksUri: 'mutually exclusive',
  },
  scopes: { maxCount: 50 },
  contacts: { maxCount: 10 },
});

export type PlatformPolicy = typeof platformPolicy;
