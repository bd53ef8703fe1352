/**
 * The console's settings, spread into the service's settings (server/config.ts). A leaf module on purpose: it
 * imports nothing that depends on the service's config type, so the settings type can be inferred without a cycle.
 */
import type { SettingDeclarations } from '../../../lib/settings/declaration.js';

export const consoleSettings = {
  consoleClientId: {
    env: 'CONSOLE_OIDC_CLIENT_ID',
    type: 'string',
    doc: 'Client id of the review console at the authorization server (`API_AUTH_ISSUER`); unset → no console.',
  },
  consoleClientSecret: {
    env: 'CONSOLE_OIDC_CLIENT_SECRET',
    type: 'string',
    secret: true,
    doc: 'Client secret of the review console (client_secret_basic at the token and introspection endpoints).',
  },
  consoleBaseUrl: {
    env: 'CONSOLE_BASE_URL',
    type: 'url',
    defaultDoc: '`http://HOST:INTERNAL_PORT/console`',
    default: (c: Record<string, unknown>) => `http://${c.host as string}:${c.internalPort as number}/console`,
    doc: 'Public URL of the console; `<CONSOLE_BASE_URL>/callback` is its registered redirect URI.',
  },
  consoleSessionTtlS: {
    env: 'CONSOLE_SESSION_TTL_S',
    type: 'integer',
    min: 60,
    max: 86_400,
    default: 8 * 3600,
    doc: "Longest console session, in seconds (never past the access token's expiry).",
  },
} satisfies SettingDeclarations;
