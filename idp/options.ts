/** The programmatic options of the stub IdP (what `createIdp` and the CLI accept), in camelCase. */
import type { ClientMetadata } from 'oidc-provider';
import type { Logger } from '../lib/logger.js';
import type { IdpUser } from './accounts.js';
import type { IdpStore } from './adapters/store.js';
import type { PrivateJwks } from './keys.js';

export interface IdpOptions {
  /** Listener port; 0 picks a free one (default 8484). */
  port?: number;
  host?: string;
  /** Default `http://HOST:PORT` (with the port actually bound). */
  issuer?: string;
  clientId?: string;
  clientSecret?: string;
  redirectUris?: string[];
  postLogoutRedirectUri?: string;
  publicClient?: boolean;
  /** More static clients (oidc-provider client metadata), e.g. a resource server that introspects tokens. */
  clients?: ClientMetadata[];
  /** Users; login_hint picks one by sub, email or preferred_username. Default: the demo user alice. */
  users?: IdpUser[];
  /** Chosen when no login_hint is given (default: the first user). */
  defaultUser?: IdpUser;
  skipPrompt?: boolean;
  accessTokenFormat?: 'opaque' | 'jwt';
  defaultAudience?: string;
  idTokenIncludesUserinfoClaims?: boolean;
  enableRegistration?: boolean;
  registrationInitialAccessToken?: string;
  /** Private signing keys (wins over jwksFile). */
  jwks?: PrivateJwks;
  jwksFile?: string;
  saveJwks?: boolean;
  /** mongodb:// URL; default: memory. */
  databaseUrl?: string;
  /** A store built by the caller (the edge worker's D1 store); wins over databaseUrl. */
  store?: IdpStore;
  trustProxy?: boolean;
  scopes?: string[];
  /** Fail at start when the database does not answer (default: start, answer /readyz 503, become ready later). */
  requireDatabaseAtStart?: boolean;
  /** The testing surface of DESIGN.md §3.4 under /_testing/ and as `idp.testing` (loopback hosts only by default). */
  enableTestingApi?: boolean;
  allowTestingApiOnPublicHost?: boolean;
  /** One issuer per tenant at `{base}/{tenant}`, each with its own keys, client, users' state and testing surface. */
  tenants?: string[];
  logger?: Logger;
}
