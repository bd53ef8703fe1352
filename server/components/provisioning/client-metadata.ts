/**
 * A registration as RFC 7591 §2 client metadata for the authorization server: the effective config (defaults
 * applied) in snake_case. Empty lists are left out so the server's own defaults and feature checks apply.
 */
import { effectiveConfig } from '../policy/effective-config.js';
import type { Registration } from '../registrations/registrations.model.js';

export type ClientMetadata = Record<string, unknown>;

export function clientMetadataOf(registration: Registration): ClientMetadata {
  const config = effectiveConfig(registration.config, registration.clientType, registration.applicationType);
  const metadata: ClientMetadata = {
    client_name: registration.name,
    // OpenID Connect Dynamic Client Registration §2 knows only `web` and `native`.
    application_type: registration.applicationType === 'native' ? 'native' : 'web',
    grant_types: config.grantTypes,
    response_types: config.responseTypes,
    token_endpoint_auth_method: config.tokenEndpointAuthMethod,
  };
  const lists: [string, string[]][] = [
    ['redirect_uris', config.redirectUris],
    ['post_logout_redirect_uris', config.postLogoutRedirectUris],
    ['contacts', config.contacts],
  ];
  for (const [name, value] of lists) if (value.length > 0) metadata[name] = value;
  if (config.scopes.length > 0) metadata.scope = config.scopes.join(' ');
  if (typeof config.clientUri === 'string') metadata.client_uri = config.clientUri;
  if (typeof config.logoUri === 'string') metadata.logo_uri = config.logoUri;
  if (typeof config.jwksUri === 'string') metadata.jwks_uri = config.jwksUri;
  if (config.jwks) metadata.jwks = config.jwks;
  return metadata;
}
