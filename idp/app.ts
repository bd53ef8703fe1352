/**
 * Builds the whole IdP for an issuer, without listening: the IdP's configuration and the issuer's keys → client →
 * provider → Express app (health at the root, interactions, then oidc-provider). Runtime-neutral: the CLI serves it
 * on node:http, the edge worker can serve the same handler.
 */
import express, { type Express } from 'express';
import type Provider from 'oidc-provider';
import type { ClientMetadata } from 'oidc-provider';
import type { AccountDirectory } from './accounts.js';
import type { IdpStore } from './adapters/store.js';
import { claimsForScopes } from './claims.js';
import { healthRouter } from './health.js';
import { interactionRouter } from './interactions.js';
import { jwtUserinfo } from './jwt-userinfo.js';
import { idpError } from './errors.js';
import { resolveCookieKeys, signingAlgorithm, type PrivateJwks } from './keys.js';
import type { ClaimsMapping } from './claims.js';
import type { Personality } from './personalities/personality.js';
import { createProvider, ROUTES } from './provider.js';
import type { IdpConfig } from './settings.js';
import { resolveStaticClient, type StaticClient } from './static-client.js';

export interface BuiltIdp {
  app: Express;
  provider: Provider;
  issuer: string;
  client: StaticClient;
  accounts: AccountDirectory;
  store: IdpStore;
  /** The private signing keys in use (the first signs by default). */
  jwks: PrivateJwks;
  /** Every client configured at start (grant types feed honest discovery). */
  staticClients: ClientMetadata[];
  claims: ClaimsMapping;
  /** Absolute registration endpoint when registration is on. */
  registrationEndpoint?: string;
}

/** What an issuer's build adds to the IdP's settings. */
export interface BuildContext {
  issuer: string;
  /** Where the app is mounted on the listener ('' or '/tenant'): interaction pages link below it. */
  mountPath: string;
  /** The signing keys (signing-keys.ts resolved them). */
  jwks: PrivateJwks;
  /** Users, and the testing API's identities, shared across rebuilds. */
  accounts: AccountDirectory;
  /** The provider this issuer imitates (`--personality`), if any. */
  personality?: Personality;
  /** The testing API's queue of next logins. */
  takeTestLogin?: () => string | undefined;
  /** With the testing API: the debugger's callback, registered on every code-flow client and its own client. */
  debugger?: { callback: string; clientSecret: string };
}

/** The debugger's callback added to code-flow clients, plus the debugger's own confidential client. */
function withDebugger(clients: ClientMetadata[], debug: BuildContext['debugger']): ClientMetadata[] {
  if (!debug) return clients;
  const extended = clients.map((c) =>
    c.redirect_uris?.length && (c.grant_types ?? ['authorization_code']).includes('authorization_code')
      ? { ...c, redirect_uris: [...c.redirect_uris, debug.callback] }
      : c,
  );
  return [
    ...extended,
    {
      client_id: 'gatehouse-debugger',
      client_secret: debug.clientSecret,
      client_name: 'Gatehouse debugger',
      redirect_uris: [debug.callback],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    },
  ];
}

export async function buildIdp(config: IdpConfig, context: BuildContext, store: IdpStore): Promise<BuiltIdp> {
  const { issuer, mountPath, jwks, accounts } = context;
  const signingAlg = signingAlgorithm(jwks);
  const client = await resolveStaticClient(config, store);
  const claims = claimsForScopes(config.scopes, accounts.users);
  // A personality's ID token claims are released with openid, so they reach ID tokens (OpenID Connect Core §5.4).
  if (context.personality) claims.openid = [...claims.openid, ...context.personality.idTokenClaimNames(issuer)];
  const staticClients = withDebugger([client.metadata, ...config.clients], context.debugger);
  const provider = createProvider({
    config,
    issuer,
    mountPath,
    accounts,
    store,
    jwks,
    signingAlg,
    cookieKeys: await resolveCookieKeys(store),
    clients: staticClients,
    claims,
    personality: context.personality,
  });

  const app = express();
  app.disable('x-powered-by');
  if (config.trustProxy) app.set('trust proxy', true);
  const checks: Record<string, () => Promise<void>> = {
    oidc: async () => {
      if (!provider.issuer) throw idpError('not_ready', 'the OpenID provider has no issuer');
    },
  };
  if (store.ping) checks.db = store.ping;
  app.use(healthRouter(checks));
  app.use(
    '/interaction',
    interactionRouter({
      provider,
      accounts,
      skipPrompt: config.skipPrompt,
      mountPath,
      takeTestLogin: context.takeTestLogin,
      logger: config.logger,
    }),
  );
  if (config.accessTokenFormat === 'jwt') app.use(ROUTES.userinfo, jwtUserinfo({ issuer, jwks, accounts, claims }));
  app.use(provider.callback());

  return {
    app,
    provider,
    issuer,
    client,
    accounts,
    store,
    jwks,
    staticClients,
    claims,
    registrationEndpoint: config.enableRegistration ? `${issuer.replace(/\/$/, '')}${ROUTES.registration}` : undefined,
  };
}
