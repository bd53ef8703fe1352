/**
 * What `createConsoleRouter(deps)` is built from: the internal surface's deps (the console calls the same service
 * functions as the internal API), the OpenID Connect client it signs reviewers in with, a logger.
 */
import type { Logger } from '../../../lib/logger.js';
import type { InternalServiceDeps } from '../internal-deps.js';

export interface ConsoleOidcOptions {
  /** The authorization server's issuer; its discovery document gives every endpoint. */
  issuer: string;
  clientId: string;
  /** Confidential client: authenticates at the token and introspection endpoints (client_secret_basic). */
  clientSecret: string;
  /** Absolute URL of `<mount>/callback`, registered at the authorization server. */
  redirectUri: string;
  /** RFC 8707 resource whose scopes (`gatehouse:review`, `gatehouse:admin`) the console asks for: the internal audience. */
  resource?: string;
}

export interface ConsoleDeps extends InternalServiceDeps {
  logger: Logger;
  oidc: ConsoleOidcOptions;
  /** How long a console session lasts at most (default 8 h; never past the access token's `exp`). */
  sessionTtlS?: number;
}
