/**
 * The console's settings, declared once here and spread into the service's settings (`...consoleSettings` after
 * `internalPort` in server/config.ts), and how they become the console's OpenID Connect options. The console is
 * mounted only when its client is configured: without credentials there is no way to sign anyone in.
 */
import type { ConsoleOidcOptions } from './console-oidc-options.js';

export { consoleSettings } from './console-settings-spec.js';

/** What the console needs from the loaded settings (ServiceConfig once `consoleSettings` is spread into it). */
export interface ConsoleConfig {
  authIssuer: string;
  /** The internal surface's audience: the resource the console's tokens are for. */
  internalAuthAudience: string;
  consoleClientId?: string;
  consoleClientSecret?: string;
  consoleBaseUrl: string;
}

/** The console's OIDC options, or undefined when its client is not configured (then the console is not mounted). */
export function consoleOidcOptions(config: ConsoleConfig): ConsoleOidcOptions | undefined {
  if (!config.consoleClientId || !config.consoleClientSecret) return undefined;
  return {
    issuer: config.authIssuer,
    clientId: config.consoleClientId,
    clientSecret: config.consoleClientSecret,
    redirectUri: `${config.consoleBaseUrl.replace(/\/$/, '')}/callback`,
    resource: config.internalAuthAudience,
  };
}
