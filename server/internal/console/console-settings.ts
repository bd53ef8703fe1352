/**
 * How the console's settings (declared in console-settings-spec.ts and spread into the service's settings in
 * server/config.ts) become its OpenID Connect options. The console is mounted only when its client is configured:
 * without credentials there is no way to sign anyone in.
 */
import type { ConsoleOidcOptions } from './console-oidc-options.js';

/** What the console needs from the loaded settings (ServiceConfig once `consoleSettings` is spread into it). */
interface ConsoleConfig {
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
