/**
 * The registered ("effective") client metadata: RFC 7591 §2 defaults applied, so responses show what the
 * authorization server will really use, not an echo of the request (RFC 7591 §3.2.1).
 */
import type { ApplicationType, ClientType, RegistrationConfig } from '../registrations/registrations.model.js';

export interface EffectiveConfig extends RegistrationConfig {
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  grantTypes: string[];
  responseTypes: string[];
  tokenEndpointAuthMethod: string;
  scopes: string[];
  contacts: string[];
  requirePkce: boolean;
  requirePushedAuthorizationRequests: boolean;
}

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined;
}

/**
 * Defaults: `grantTypes` ["authorization_code"] (["client_credentials"] for services, which have no user);
 * `responseTypes` ["code"] only when the code grant is used, so a default never makes the set inconsistent;
 * `tokenEndpointAuthMethod` `none` for public clients, `client_secret_basic` otherwise (RFC 7591 §2);
 * `requirePkce` true, and always true for public clients (RFC 9700 §2.1.1).
 */
export function effectiveConfig(
  config: RegistrationConfig,
  clientType: ClientType,
  applicationType: ApplicationType,
): EffectiveConfig {
  const grantTypes =
    strings(config.grantTypes) ?? (applicationType === 'service' ? ['client_credentials'] : ['authorization_code']);
  const responseTypes = strings(config.responseTypes) ?? (grantTypes.includes('authorization_code') ? ['code'] : []);
  const out: EffectiveConfig = {
    ...config,
    redirectUris: strings(config.redirectUris) ?? [],
    postLogoutRedirectUris: strings(config.postLogoutRedirectUris) ?? [],
    grantTypes,
    responseTypes,
    tokenEndpointAuthMethod:
      typeof config.tokenEndpointAuthMethod === 'string'
        ? config.tokenEndpointAuthMethod
        : clientType === 'public'
          ? 'none'
          : 'client_secret_basic',
    scopes: strings(config.scopes) ?? [],
    contacts: strings(config.contacts) ?? [],
    requirePkce: clientType === 'public' ? true : config.requirePkce !== false,
    requirePushedAuthorizationRequests: config.requirePushedAuthorizationRequests === true,
  };
  return out;
}
