/**
 * The stub IdP's settings (DESIGN.md §3.1), declared once: each has a CLI flag (the key in kebab-case) and an
 * `IDP_<UPPER_SNAKE>` environment variable. The CLI, `--help` and the README table are generated from this.
 */
import type { ConfigOf, SettingsSpec } from '../lib/config.js';

/** The registration service's API scopes (DESIGN.md §1.2) plus the reviewer/admin ones. */
export const SERVICE_SCOPES = [
  'registrations:read',
  'registrations:write',
  'change_sets:write',
  'gatehouse:review',
  'gatehouse:admin',
] as const;

export const DEFAULT_SCOPES = ['openid', 'offline_access', 'profile', 'email', ...SERVICE_SCOPES];

function absoluteUrlProblem(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.hash ? `must not have a fragment (got "${value}")` : undefined;
  } catch {
    return `must be an absolute URI (got "${value}")`;
  }
}

export const idpSettings = {
  port: {
    env: 'IDP_PORT',
    type: 'integer',
    min: 0,
    max: 65535,
    default: 8484,
    doc: 'Listener port (0 picks a free port).',
  },
  host: { env: 'IDP_HOST', type: 'string', default: '127.0.0.1', doc: 'Listener address.' },
  issuer: {
    env: 'IDP_ISSUER',
    type: 'url',
    defaultDoc: '`http://HOST:PORT`',
    doc: 'Issuer identifier; endpoint URLs follow the request host (and X-Forwarded-* with --trust-proxy).',
  },
  clientId: { env: 'IDP_CLIENT_ID', type: 'string', defaultDoc: 'generated', doc: "The configured client's id." },
  clientSecret: {
    env: 'IDP_CLIENT_SECRET',
    type: 'string',
    defaultDoc: 'generated',
    doc: "The configured client's secret (ignored with --public-client).",
  },
  redirectUri: {
    env: 'IDP_REDIRECT_URI',
    type: 'list',
    defaultDoc: 'none',
    doc: 'Redirect URI of the configured client (repeatable flag; comma-separated in the environment). Without one, the client may only use client_credentials.',
    check: (uris: string[]) => uris.map(absoluteUrlProblem).find(Boolean),
  },
  postLogoutRedirectUri: {
    env: 'IDP_POST_LOGOUT_REDIRECT_URI',
    type: 'url',
    doc: 'Post-logout redirect URI of the configured client.',
  },
  publicClient: {
    env: 'IDP_PUBLIC_CLIENT',
    type: 'boolean',
    default: false,
    doc: 'Configured client is public: token_endpoint_auth_method none, PKCE required.',
  },
  users: {
    env: 'IDP_USERS',
    type: 'string',
    doc: 'YAML or JSON file of users (a list, or { users: [...] }), or that JSON inline; each needs a `sub`; login_hint picks one.',
  },
  defaultUser: {
    env: 'IDP_DEFAULT_USER',
    type: 'string',
    doc: 'JSON claims of the default user (chosen when no login_hint is given).',
  },
  skipPrompt: {
    env: 'IDP_SKIP_PROMPT',
    type: 'boolean',
    default: false,
    doc: 'Login and consent auto-approved (user from login_hint or the default user); logout without confirmation, back-channel logout sent first.',
  },
  accessTokenFormat: {
    env: 'IDP_ACCESS_TOKEN_FORMAT',
    type: 'string',
    choices: ['opaque', 'jwt'],
    default: 'opaque',
    doc: '`jwt`: RFC 9068 access tokens (typ at+jwt, aud = resource, else --default-audience, else the issuer).',
  },
  defaultAudience: {
    env: 'IDP_DEFAULT_AUDIENCE',
    type: 'string',
    check: absoluteUrlProblem,
    doc: 'Resource (audience) used when a client asks for none (an absolute URI, RFC 8707).',
  },
  idTokenIncludesUserinfoClaims: {
    env: 'IDP_ID_TOKEN_INCLUDES_USERINFO_CLAIMS',
    type: 'boolean',
    default: false,
    doc: 'ID tokens also carry the email/profile claims of the granted scopes (conformIdTokenClaims off).',
  },
  enableRegistration: {
    env: 'IDP_ENABLE_REGISTRATION',
    type: 'boolean',
    default: false,
    doc: 'Dynamic client registration (RFC 7591) at /register and management (RFC 7592).',
  },
  registrationInitialAccessToken: {
    env: 'IDP_REGISTRATION_INITIAL_ACCESS_TOKEN',
    type: 'string',
    doc: 'Bearer token required by POST /register.',
  },
  jwksFile: {
    env: 'IDP_JWKS_FILE',
    type: 'string',
    doc: 'Private JWKS file with the signing keys (generated RSA RS256 + EC P-256 ES256 keys when absent; the first key signs by default).',
  },
  saveJwks: {
    env: 'IDP_SAVE_JWKS',
    type: 'boolean',
    default: false,
    doc: 'Write the generated keys to --jwks-file when that file does not exist yet.',
  },
  databaseUrl: {
    env: 'IDP_DATABASE_URL',
    type: 'url',
    check: (url: string) => (/^mongodb(\+srv)?:\/\//.test(url) ? undefined : `must be a mongodb:// URL (got "${url}")`),
    doc: 'MongoDB URL: every oidc-provider model and the keys are stored there (default: memory).',
  },
  requireDatabaseAtStart: {
    env: 'IDP_REQUIRE_DATABASE_AT_START',
    type: 'boolean',
    default: false,
    doc: 'Exit at start when --database-url does not answer (default: start anyway, /readyz 503 until it does).',
  },
  enableTestingApi: {
    env: 'IDP_ENABLE_TESTING_API',
    type: 'boolean',
    default: false,
    doc: 'Serve the testing API under /_testing/ (mint tokens, next logins, faults, key rotation, clock, request log, reset) and the /_debugger page. Loopback hosts only.',
  },
  allowTestingApiOnPublicHost: {
    env: 'IDP_ALLOW_TESTING_API_ON_PUBLIC_HOST',
    type: 'boolean',
    default: false,
    doc: 'Allow --enable-testing-api on a non-loopback --host (anyone who reaches it can mint tokens).',
  },
  tenants: {
    env: 'IDP_TENANTS',
    type: 'list',
    defaultDoc: 'none',
    doc: 'Serve one issuer per tenant at {issuer}/{tenant}, each with its own discovery, keys, client, state and testing API.',
  },
  trustProxy: { env: 'IDP_TRUST_PROXY', type: 'boolean', default: false, doc: 'Honour X-Forwarded-* headers.' },
  scopes: { env: 'IDP_SCOPES', type: 'list', default: DEFAULT_SCOPES, doc: 'Scopes the provider accepts.' },
  logLevel: {
    env: 'IDP_LOG_LEVEL',
    type: 'string',
    choices: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    default: 'info',
    doc: 'Log level of the JSON log lines on stderr.',
  },
} satisfies SettingsSpec;

export type IdpSettings = ConfigOf<typeof idpSettings>;

/** `clientId` → `client-id`: the CLI flag of a setting. */
export function flagName(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** The README's flag table, generated from the declarations (test/idp/readme.test.ts keeps them in sync). */
export function idpSettingsTable(): string {
  const rows = Object.entries(idpSettings).map(([key, s]) => {
    const setting = s as { env: string; doc: string; default?: string | number | boolean; defaultDoc?: string };
    const def = setting.defaultDoc ?? (setting.default === undefined ? '—' : `\`${String(setting.default)}\``);
    return `| \`--${flagName(key)}\` | \`${setting.env}\` | ${def} | ${setting.doc.replace(/\|/g, '\\|')} |`;
  });
  return ['| Flag | Environment | Default | Meaning |', '|---|---|---|---|', ...rows].join('\n');
}
