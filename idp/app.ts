/**
 * Builds the whole IdP for an issuer, without listening: store → keys → client → provider → Express app
 * (health at the root, interactions, then oidc-provider). Runtime-neutral: the CLI serves it on node:http,
 * the edge worker can serve the same handler.
 */
import express, { type Express } from 'express';
import type Provider from 'oidc-provider';
import type { ClientMetadata } from 'oidc-provider';
import { silentLogger } from '../lib/logger.js';
import { createAccountDirectory, type AccountDirectory } from './accounts.js';
import { createMemoryStore } from './adapters/memory.js';
import type { IdpStore } from './adapters/store.js';
import { claimsForScopes } from './claims.js';
import { healthRouter } from './health.js';
import { interactionRouter } from './interactions.js';
import { jwtUserinfo } from './jwt-userinfo.js';
import { resolveCookieKeys, resolveSigningKeys, signingAlgorithm, type PrivateJwks } from './keys.js';
import type { ClaimsMapping } from './claims.js';
import type { IdpOptions } from './options.js';
import { createProvider, ROUTES } from './provider.js';
import { DEFAULT_SCOPES } from './settings.js';
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

/** Opens the store the options ask for (MongoDB when databaseUrl is set). */
export async function openStore(options: IdpOptions): Promise<IdpStore> {
  if (options.store) return options.store;
  if (!options.databaseUrl) return createMemoryStore();
  // Loaded on demand: runtimes without MongoDB (the edge worker) never pull in the driver.
  const { createMongoStore } = await import('./adapters/mongo.js');
  return createMongoStore(options.databaseUrl);
}

export interface BuildContext {
  issuer: string;
  /** Where the app is mounted on the listener ('' or '/tenant'): interaction pages link below it. */
  mountPath?: string;
  /** Test logins' identities (the testing API), shared across rebuilds. */
  accounts?: AccountDirectory;
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

export async function buildIdp(options: IdpOptions & BuildContext, store: IdpStore): Promise<BuiltIdp> {
  const logger = options.logger ?? silentLogger;
  const scopes = options.scopes ?? DEFAULT_SCOPES;
  if (!scopes.includes('openid')) throw new Error('scopes must include openid');
  const jwks = await resolveSigningKeys(options, store);
  const signingAlg = signingAlgorithm(jwks);
  const client = await resolveStaticClient(options, store);
  const accounts = options.accounts ?? createAccountDirectory(options.users, options.defaultUser);
  const mountPath = options.mountPath ?? '';
  const claims = claimsForScopes(scopes, accounts.users);
  const enableRegistration = options.enableRegistration ?? false;
  if (options.registrationInitialAccessToken && !enableRegistration) {
    throw new Error('--registration-initial-access-token needs --enable-registration');
  }
  const staticClients = withDebugger([client.metadata, ...(options.clients ?? [])], options.debugger);
  const provider = createProvider({
    issuer: options.issuer,
    accounts,
    store,
    jwks,
    signingAlg,
    cookieKeys: await resolveCookieKeys(store),
    clients: staticClients,
    scopes,
    claims,
    skipPrompt: options.skipPrompt ?? false,
    accessTokenFormat: options.accessTokenFormat ?? 'opaque',
    defaultAudience: options.defaultAudience,
    idTokenIncludesUserinfoClaims: options.idTokenIncludesUserinfoClaims ?? false,
    registration: { enabled: enableRegistration, initialAccessToken: options.registrationInitialAccessToken },
    trustProxy: options.trustProxy ?? false,
    mountPath,
    logger,
  });

  const app = express();
  app.disable('x-powered-by');
  if (options.trustProxy) app.set('trust proxy', true);
  const checks: Record<string, () => Promise<void>> = {
    oidc: async () => {
      if (!provider.issuer) throw new Error('the OpenID provider has no issuer');
    },
  };
  if (store.ping) checks.db = store.ping;
  app.use(healthRouter(checks));
  app.use(
    '/interaction',
    interactionRouter({
      provider,
      accounts,
      skipPrompt: options.skipPrompt ?? false,
      mountPath,
      takeTestLogin: options.takeTestLogin,
      logger,
    }),
  );
  if ((options.accessTokenFormat ?? 'opaque') === 'jwt') {
    app.use(ROUTES.userinfo, jwtUserinfo({ issuer: options.issuer, jwks, accounts, claims }));
  }
  app.use(provider.callback());

  const base = options.issuer.replace(/\/$/, '');
  return {
    app,
    provider,
    issuer: options.issuer,
    client,
    accounts,
    store,
    jwks,
    staticClients,
    claims,
    registrationEndpoint: enableRegistration ? `${base}${ROUTES.registration}` : undefined,
  };
}
