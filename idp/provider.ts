/**
 * The oidc-provider configuration of the stub IdP (docs/architecture.md §3): routes at the seed's paths, the features the
 * seed needs (registration at /register, introspection, revocation, client credentials, back-channel and
 * RP-initiated logout), resource indicators for JWT access tokens, and no dev defaults left in place.
 */
import './quiet-runtime-warning.js';
import Provider, {
  errors,
  type ClientMetadata,
  type Configuration,
  type SigningAlgorithmWithNone,
} from 'oidc-provider';
import type { AccountDirectory } from './accounts.js';
import type { IdpStore } from './adapters/store.js';
import type { ClaimsMapping } from './claims.js';
import { signingAlgorithms, type PrivateJwks } from './keys.js';
import { rpInitiatedLogout, SESSION_COOKIE_OPTIONS, skipPromptLogoutWithoutSession } from './logout.js';
import { offlineAccessImpliesConsent } from './offline-access.js';
import { outgoingFetch } from './outgoing-fetch.js';
import { acceptPreviousSecret, previousSecretMetadata } from './previous-secret.js';
import { registrationSecrets } from './registration-secrets.js';
import { extraTokenClaims, resourceIndicators, resourceServers } from './resource-server.js';
import { TOKEN_EXCHANGE_GRANT, TOKEN_EXCHANGE_PARAMETERS, tokenExchange } from './token-exchange.js';
import { renderError } from './render-error.js';
import { clientAuthRequired } from './client-auth-required.js';
import { clientIdMetadataDocument } from './client-id-metadata-document.js';
import { noteRequestInfo } from './request-info.js';
import { loadGrantInStep } from './user-scopes.js';
import type { IdpConfig } from './settings.js';
import { audienceParameter } from './audience-parameter.js';
import type { Personality } from './personalities/personality.js';
import { withPersonalityClaims } from './personality-claims.js';

/** What a provider is built from: the IdP's settings, and what the issuer resolved at build time. */
export interface ProviderSetup {
  config: IdpConfig;
  issuer: string;
  /** '' or the tenant's path on the listener. */
  mountPath: string;
  accounts: AccountDirectory;
  store: IdpStore;
  jwks: PrivateJwks;
  signingAlg: string;
  cookieKeys: string[];
  /** The configured client first, then any extra static clients. */
  clients: ClientMetadata[];
  claims: ClaimsMapping;
  /** The provider this issuer imitates, if any. */
  personality?: Personality;
}

/** oidc-provider's defaults, set explicitly (it nags otherwise); seconds. */
const TTL = {
  AccessToken: 3600,
  AuthorizationCode: 60,
  BackchannelAuthenticationRequest: 600,
  ClientCredentials: 600,
  DeviceCode: 600,
  Grant: 14 * 24 * 3600,
  IdToken: 3600,
  Interaction: 3600,
  RefreshToken: 14 * 24 * 3600,
  Session: 14 * 24 * 3600,
};

export const ROUTES = {
  authorization: '/auth',
  token: '/token',
  userinfo: '/me',
  jwks: '/jwks',
  end_session: '/session/end',
  registration: '/register',
  introspection: '/token/introspection',
  revocation: '/token/revocation',
  pushed_authorization_request: '/request',
  code_verification: '/device',
  backchannel_authentication: '/backchannel',
  challenge: '/challenge',
} as const;

export function createProvider(setup: ProviderSetup): Provider {
  const { config } = setup;
  const configuration: Configuration = {
    adapter: setup.store.adapter,
    clients: setup.clients,
    clientDefaults: {
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      id_token_signed_response_alg: setup.signingAlg as SigningAlgorithmWithNone,
    },
    jwks: setup.jwks,
    // Only what the keys can sign: a client asking for RS256 or ES256 gets it, one asking for anything else is told so.
    enabledJWA: { idTokenSigningAlgValues: signingAlgorithms(setup.jwks) as SigningAlgorithmWithNone[] },
    // Authorization code only (docs/architecture.md §3.1): discovery then advertises neither implicit nor hybrid flows.
    responseTypes: ['code'],
    cookies: { keys: setup.cookieKeys, long: SESSION_COOKIE_OPTIONS, short: SESSION_COOKIE_OPTIONS },
    findAccount: setup.personality
      ? withPersonalityClaims(setup.accounts.findAccount, setup.personality, setup.issuer)
      : setup.accounts.findAccount,
    loadExistingGrant: loadGrantInStep(setup.accounts),
    scopes: [...config.scopes],
    claims: setup.claims,
    conformIdTokenClaims: !config.idTokenIncludesUserinfoClaims,
    routes: ROUTES,
    ttl: TTL,
    interactions: { url: async (_ctx, interaction) => `${setup.mountPath}/interaction/${interaction.uid}` },
    renderError,
    fetch: outgoingFetch as Configuration['fetch'],
    extraTokenClaims: extraTokenClaims(setup),
    extraClientMetadata: previousSecretMetadata,
    features: {
      devInteractions: { enabled: false },
      introspection: {
        enabled: true,
        // Confidential clients (resource servers such as the registration service) may introspect any token.
        allowedPolicy: async (ctx, client, token) =>
          client.clientAuthMethod !== 'none' || token.clientId === ctx.oidc.client?.clientId,
      },
      revocation: {
        enabled: true,
        // RFC 7009 §2.1: only the client a token was issued to may revoke it (others are ignored silently when public).
        allowedPolicy: async (_ctx, client, token) => {
          if (token.clientId === client.clientId) return true;
          if (client.clientAuthMethod === 'none') return false;
          throw new errors.InvalidRequest('client is not authorized to revoke the presented token');
        },
      },
      clientCredentials: { enabled: true },
      deviceFlow: { enabled: config.enableDeviceFlow },
      backchannelLogout: { enabled: true },
      rpInitiatedLogout: rpInitiatedLogout(config.skipPrompt),
      registration: {
        enabled: config.enableRegistration,
        initialAccessToken: config.registrationInitialAccessToken ?? false,
        issueRegistrationAccessToken: true,
      },
      registrationManagement: { enabled: config.enableRegistration, rotateRegistrationAccessToken: false },
      resourceIndicators: resourceIndicators(setup),
      clientIdMetadataDocument: clientIdMetadataDocument(config),
    },
  };
  const provider = new Provider(setup.issuer, configuration);
  if (config.enableTokenExchange) {
    const resources = resourceServers(setup);
    provider.registerGrantType(
      TOKEN_EXCHANGE_GRANT,
      tokenExchange({ provider, issuer: setup.issuer, jwks: setup.jwks, resources }),
      TOKEN_EXCHANGE_PARAMETERS,
    );
  }
  provider.proxy = config.trustProxy;
  provider.use(noteRequestInfo);
  provider.use(clientAuthRequired([ROUTES.introspection, ROUTES.revocation]));
  provider.use(offlineAccessImpliesConsent(ROUTES.authorization));
  if (setup.personality?.audienceParameter) provider.use(audienceParameter([ROUTES.authorization, ROUTES.token]));
  if (config.enableRegistration) provider.use(registrationSecrets(provider, ROUTES.registration));
  acceptPreviousSecret(provider);
  if (config.skipPrompt) provider.use(skipPromptLogoutWithoutSession());
  provider.on('server_error', (_ctx, error) => config.logger.error({ err: error }, 'oidc-provider server_error'));
  // A back-channel receiver that is down does not block a logout; it is logged here, never with the token.
  provider.on('backchannel.error', (_ctx, error, client) =>
    config.logger.warn({ clientId: client.clientId, err: error.message }, 'back-channel logout failed'),
  );
  return provider;
}
