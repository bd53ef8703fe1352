/**
 * The console's settings, declared once here and spread into the service's settings (`...consoleSettings` after
 * `internalPort` in server/config.ts), and how they become the console's OpenID Connect options. The console is
 * mounted only when its client is configured: without credentials there is no way to sign anyone in.
 */
import type { SettingsSpec } from '../../../lib/config.js';
import type { ConsoleOidcOptions } from './console-deps.js';

export const consoleSettings = {
  consoleClientId: {
    env: 'CONSOLE_OIDC_CLIENT_ID', type: 'string',
    doc: 'Client id of the review console at the authorization server (`API_AUTH_ISSUER`); unset → no console.',
  },
  consoleClientSecret: {
    env: 'CONSOLE_OIDC_CLIENT_SECRET', type: 'string',
    doc: 'Client secret of the review console (client_secret_basic at the token and introspection endpoints).',
  },
  consoleBaseUrl: {
    env: 'CONSOLE_BASE_URL', type: 'url', defaultDoc: '`http://HOST:INTERNAL_PORT/console`',
    default: (c: Record<string, unknown>) => `http://${c.host as string}:${c.internalPort as number}/console`,
    doc: 'Public URL of the console; `<CONSOLE_BASE_URL>/callback` is its registered redirect URI.',
  },
  consoleSessionTtlS: {
    env: 'CONSOLE_SESSION_TTL_S', type: 'integer', min: 60, max: 86_400, default: 8 * 3600,
    doc: 'Longest console session, in seconds (never past the access token\'s expiry).',
  },
} satisfies SettingsSpec;

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
