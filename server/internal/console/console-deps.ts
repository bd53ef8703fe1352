/**
 * What `createConsoleRouter(deps)` is built from: the internal surface's deps (the console calls the same service
 * functions as the internal API), the OpenID Connect client it signs reviewers in with, a logger.
 */
import type { Logger } from '../../../lib/logger.js';
import type { InternalServiceDeps } from '../internal-deps.js';
import type { ConsoleOidcOptions } from './console-oidc-options.js';

export interface ConsoleDeps extends InternalServiceDeps {
  logger: Logger;
  oidc: ConsoleOidcOptions;
  /** How long a console session lasts at most (default 8 h; never past the access token's `exp`). */
  sessionTtlS?: number;
}
