/**
 * The stub IdP's settings (docs/architecture.md §3.1), declared once: the CLI's flags, the `IDP_*` variables (also the edge
 * worker's), `createIdp`'s options, `--help` and the README table all come from here, and so do the rules between
 * them. `createIdp` resolves its options against this once, into the frozen `IdpConfig` the rest of the IdP reads.
 */
import type { ClientMetadata } from 'oidc-provider';
import { LOG_LEVELS, silentLogger, type Logger } from '../lib/logger.js';
import { defineSettings, type SettingsInput, type SettingsOf } from '../lib/settings/declaration.js';
import { loadSettings } from '../lib/settings/load-settings.js';
import { acceptDefaultUser, acceptUsers, parseDefaultUser, parseUsers } from './accounts.js';
import type { IdpStore } from './adapters/store.js';
import { idpError } from './errors.js';
import { checkPrivateJwks } from './keys.js';
import { isLoopbackHostname } from './outgoing-fetch.js';
import { PERSONALITIES, personalityProblem } from './personalities/registry.js';
import { protectedResourcePath } from './protected-resource.js';
import { readUsersFile } from './users-file.js';

/** The registration service's API scopes (docs/architecture.md §1.2) plus the reviewer/admin ones. */
export const SERVICE_SCOPES = [
  'registrations:read',
  'registrations:write',
  'change_sets:write',
  'webhooks:read',
  'webhooks:write',
  'gatehouse:review',
  'gatehouse:admin',
] as const;

export const DEFAULT_SCOPES = ['openid', 'offline_access', 'profile', 'email', ...SERVICE_SCOPES];

const TENANT_NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;
/** Paths the listener serves at its root: no tenant may take them. */
const RESERVED_PATHS = new Set(['healthz', 'readyz', '_testing', '_debugger', 'interaction', '.well-known']);

function withoutFragment(uri: string): string | undefined {
  try {
    return new URL(uri).hash ? `must not have a fragment (got "${uri}")` : undefined;
  } catch {
    return `must be an absolute URI (got "${uri}")`;
  }
}

function tenantProblem(tenants: readonly string[]): string | undefined {
  const bad = tenants.find((t) => !TENANT_NAME.test(t) || RESERVED_PATHS.has(t));
  if (bad) return `must be lower-case letters, digits, - or _, and not a reserved path (got "${bad}")`;
  const twice = tenants.find((t, i) => tenants.indexOf(t) !== i);
  return twice ? `lists "${twice}" twice` : undefined;
}

/** Resource indicators are absolute URIs without a fragment (RFC 8707 §2), and no two share a metadata path. */
function resourcesProblem(resources: readonly string[]): string | undefined {
  const bad = resources.map(withoutFragment).find(Boolean);
  if (bad) return bad;
  const paths = resources.map((r) => protectedResourcePath(r));
  const twice = paths.findIndex((p, i) => paths.indexOf(p) !== i);
  return twice >= 0
    ? `gives two resources whose metadata would share the path ${paths[twice]} (${resources[paths.indexOf(paths[twice])]}, ${resources[twice]})`
    : undefined;
}

/** Code-only options (no flag, no variable) accept any object of the shape their consumer checks. */
function object<T>(what: string): (value: unknown) => T {
  return (value) => {
    if (typeof value !== 'object' || value === null) throw idpError('invalid_settings', `must be ${what}`);
    return value as T;
  };
}

export const idpSettings = defineSettings(
  {
    port: { type: 'port', flag: '--port', env: 'IDP_PORT', default: 8484, doc: 'Listener port (0 picks a free port).' },
    host: {
      type: 'string',
      flag: '--host',
      env: 'IDP_HOST',
      valueName: '<host>',
      default: '127.0.0.1',
      doc: 'Listener address.',
    },
    issuer: {
      type: 'url',
      flag: '--issuer',
      env: 'IDP_ISSUER',
      defaultDoc: '`http://HOST:PORT`',
      doc: 'Issuer identifier; endpoint URLs follow the request host (and X-Forwarded-* with --trust-proxy).',
    },
    clientId: {
      type: 'string',
      flag: '--client-id',
      env: 'IDP_CLIENT_ID',
      valueName: '<id>',
      defaultDoc: 'generated',
      doc: "The configured client's id.",
    },
    clientSecret: {
      type: 'string',
      flag: '--client-secret',
      env: 'IDP_CLIENT_SECRET',
      valueName: '<secret>',
      secret: true,
      defaultDoc: 'generated',
      doc: "The configured client's secret (ignored with --public-client).",
    },
    redirectUris: {
      type: 'list',
      flag: '--redirect-uri',
      env: 'IDP_REDIRECT_URI',
      valueName: '<uri>',
      split: false,
      defaultDoc: 'none',
      doc: 'Redirect URI of the configured client. Without one, the client may only use client_credentials.',
      check: (uris) => uris.map(withoutFragment).find(Boolean),
    },
    postLogoutRedirectUri: {
      type: 'url',
      flag: '--post-logout-redirect-uri',
      env: 'IDP_POST_LOGOUT_REDIRECT_URI',
      doc: 'Post-logout redirect URI of the configured client.',
    },
    publicClient: {
      type: 'boolean',
      flag: '--public-client',
      env: 'IDP_PUBLIC_CLIENT',
      doc: 'Configured client is public: token_endpoint_auth_method none, PKCE required.',
    },
    users: {
      type: 'custom',
      flag: '--users',
      env: 'IDP_USERS',
      valueName: '<file|json>',
      // A file, or the users document itself when it is inline JSON (handy in environment-only setups).
      parse: (text: string) => (/^\s*[[{]/.test(text) ? parseUsers(text) : readUsersFile(text)),
      accept: acceptUsers,
      format: (users) => JSON.stringify(users),
      doc: 'YAML or JSON file of users (a list, or { users: [...] }), or that JSON inline; each needs a `sub`; login_hint picks one.',
    },
    defaultUser: {
      type: 'custom',
      flag: '--default-user',
      env: 'IDP_DEFAULT_USER',
      valueName: '<json>',
      parse: parseDefaultUser,
      accept: acceptDefaultUser,
      format: (user) => JSON.stringify(user),
      doc: 'JSON claims of the default user (chosen when no login_hint is given).',
    },
    skipPrompt: {
      type: 'boolean',
      flag: '--skip-prompt',
      env: 'IDP_SKIP_PROMPT',
      doc: 'Login and consent auto-approved (user from login_hint or the default user); logout without confirmation, back-channel logout sent first.',
    },
    personality: {
      type: 'list',
      flag: '--personality',
      env: 'IDP_PERSONALITY',
      valueName: '<name|tenant=name>',
      defaultDoc: 'none',
      doc: `Act as ${Object.keys(PERSONALITIES).join(', ')}: that provider's issuer form, claim names and shapes (idp/README.md "Provider personalities"); \`tenant=name\` for one tenant of --tenants.`,
    },
    accessTokenFormat: {
      type: 'enum',
      choices: ['opaque', 'jwt'],
      flag: '--access-token-format',
      env: 'IDP_ACCESS_TOKEN_FORMAT',
      // Every provider a personality imitates issues JWT access tokens.
      default: (s) => ((s.personality as readonly string[]).length ? 'jwt' : 'opaque'),
      defaultDoc: '`opaque` (`jwt` with --personality)',
      doc: '`jwt`: RFC 9068 access tokens (typ at+jwt, aud = resource, else --default-audience, else the issuer).',
    },
    defaultAudience: {
      type: 'string',
      flag: '--default-audience',
      env: 'IDP_DEFAULT_AUDIENCE',
      valueName: '<uri>',
      check: withoutFragment,
      doc: 'Resource (audience) used when a client asks for none (an absolute URI, RFC 8707).',
    },
    idTokenIncludesUserinfoClaims: {
      type: 'boolean',
      flag: '--id-token-includes-userinfo-claims',
      env: 'IDP_ID_TOKEN_INCLUDES_USERINFO_CLAIMS',
      doc: 'ID tokens also carry the email/profile claims of the granted scopes (conformIdTokenClaims off).',
    },
    resources: {
      type: 'list',
      flag: '--resource',
      env: 'IDP_RESOURCE',
      valueName: '<url>',
      defaultDoc: 'none (any resource accepted)',
      check: resourcesProblem,
      doc: 'A protected resource (an API or MCP server URL, RFC 8707): its RFC 9728 metadata is served at {issuer}/.well-known/oauth-protected-resource{its path}; once one is given, a token for any other resource is refused (invalid_target).',
    },
    enableClientIdMetadataDocument: {
      type: 'boolean',
      flag: '--enable-client-id-metadata-document',
      env: 'IDP_ENABLE_CLIENT_ID_METADATA_DOCUMENT',
      doc: 'Accept an https URL as client_id: the client is the JSON document served there (OAuth Client ID Metadata Document, draft-02), its redirect URIs enforced.',
    },
    clientIdMetadataDocumentHosts: {
      type: 'list',
      flag: '--client-id-metadata-document-host',
      env: 'IDP_CLIENT_ID_METADATA_DOCUMENT_HOST',
      valueName: '<host>',
      defaultDoc: 'loopback only',
      doc: 'Hosts client ID metadata documents may be fetched from, besides loopback (127.0.0.1, ::1, localhost; their certificates are not verified); `*` allows any host.',
    },
    enableTokenExchange: {
      type: 'boolean',
      flag: '--enable-token-exchange',
      env: 'IDP_ENABLE_TOKEN_EXCHANGE',
      doc: 'Token exchange (RFC 8693) for the configured client and any client whose grant_types list it: a user’s access token from this IdP for another audience or resource, scopes narrowed, never widened.',
    },
    enableDeviceFlow: {
      type: 'boolean',
      flag: '--enable-device-flow',
      env: 'IDP_ENABLE_DEVICE_FLOW',
      doc: 'Device authorization grant (RFC 8628) at /device/auth, verification at /device, for the configured client and any client whose grant_types list it; the testing API approves a user code headlessly.',
    },
    enableRegistration: {
      type: 'boolean',
      flag: '--enable-registration',
      env: 'IDP_ENABLE_REGISTRATION',
      doc: 'Dynamic client registration (RFC 7591) at /register and management (RFC 7592).',
    },
    registrationInitialAccessToken: {
      type: 'string',
      flag: '--registration-initial-access-token',
      env: 'IDP_REGISTRATION_INITIAL_ACCESS_TOKEN',
      valueName: '<token>',
      secret: true,
      doc: 'Bearer token required by POST /register.',
    },
    jwksFile: {
      type: 'string',
      flag: '--jwks-file',
      env: 'IDP_JWKS_FILE',
      valueName: '<path>',
      doc: 'Private JWKS file with the signing keys (generated RSA RS256 + EC P-256 ES256 keys when absent; the first key signs by default).',
    },
    saveJwks: {
      type: 'boolean',
      flag: '--save-jwks',
      env: 'IDP_SAVE_JWKS',
      doc: 'Write the generated keys to --jwks-file when that file does not exist yet.',
    },
    databaseUrl: {
      type: 'url',
      flag: '--database-url',
      env: 'IDP_DATABASE_URL',
      protocols: ['mongodb:', 'mongodb+srv:'],
      secret: true,
      defaultDoc: 'memory',
      doc: 'MongoDB URL: every oidc-provider model and the keys are stored there.',
    },
    requireDatabaseAtStart: {
      type: 'boolean',
      flag: '--require-database-at-start',
      env: 'IDP_REQUIRE_DATABASE_AT_START',
      doc: 'Exit at start when --database-url does not answer (default: start anyway, /readyz 503 until it does).',
    },
    enableTestingApi: {
      type: 'boolean',
      flag: '--enable-testing-api',
      env: 'IDP_ENABLE_TESTING_API',
      doc: 'Serve the testing API under /_testing/ (mint tokens, next logins, faults, key rotation, clock, request log, reset) and the /_debugger page. Loopback hosts only.',
    },
    allowTestingApiOnPublicHost: {
      type: 'boolean',
      flag: '--allow-testing-api-on-public-host',
      env: 'IDP_ALLOW_TESTING_API_ON_PUBLIC_HOST',
      doc: 'Allow --enable-testing-api on a non-loopback --host (anyone who reaches it can mint tokens).',
    },
    tenants: {
      type: 'list',
      flag: '--tenants',
      env: 'IDP_TENANTS',
      valueName: '<name>',
      defaultDoc: 'none',
      check: tenantProblem,
      doc: 'Serve one issuer per tenant at {issuer}/{tenant}, each with its own discovery, keys, client, state and testing API.',
    },
    https: {
      type: 'boolean',
      flag: '--https',
      env: 'IDP_HTTPS',
      doc: 'Serve HTTPS with a certificate made at start (a development CA and a server certificate for the host, localhost and loopback); the issuer becomes https://…, the CA is written to --tls-ca-out and printed at start.',
    },
    tlsCert: {
      type: 'string',
      flag: '--tls-cert',
      env: 'IDP_TLS_CERT',
      valueName: '<path>',
      doc: 'Serve HTTPS with this PEM certificate (chain); needs --tls-key. The issuer becomes https://….',
    },
    tlsKey: {
      type: 'string',
      flag: '--tls-key',
      env: 'IDP_TLS_KEY',
      valueName: '<path>',
      doc: 'The PEM private key of --tls-cert.',
    },
    tlsCaOut: {
      type: 'string',
      flag: '--tls-ca-out',
      env: 'IDP_TLS_CA_OUT',
      valueName: '<path>',
      defaultDoc: 'a new temporary file',
      doc: 'Where --https writes the CA certificate (PEM) a client trusts (NODE_EXTRA_CA_CERTS, curl --cacert).',
    },
    trustProxy: {
      type: 'boolean',
      flag: '--trust-proxy',
      env: 'IDP_TRUST_PROXY',
      doc: 'Honour X-Forwarded-* headers.',
    },
    scopes: {
      type: 'list',
      flag: '--scopes',
      env: 'IDP_SCOPES',
      valueName: '<scope>',
      default: DEFAULT_SCOPES,
      check: (scopes) => (scopes.includes('openid') ? undefined : 'must include openid'),
      doc: 'Scopes the provider accepts.',
    },
    logLevel: {
      type: 'enum',
      choices: LOG_LEVELS,
      flag: '--log-level',
      env: 'IDP_LOG_LEVEL',
      valueName: '<level>',
      default: 'info',
      doc: 'Log level of the JSON log lines on stderr.',
    },
    // Options of createIdp only (objects a command line cannot carry).
    clients: {
      type: 'custom',
      accept: (value: unknown): readonly ClientMetadata[] => {
        if (!Array.isArray(value) || !value.every((c) => typeof (c as ClientMetadata | null)?.client_id === 'string'))
          throw idpError('invalid_settings', 'must be a list of client metadata objects, each with a client_id');
        return value as ClientMetadata[];
      },
      default: [],
      doc: 'More static clients (oidc-provider client metadata), e.g. a resource server that introspects tokens.',
    },
    jwks: {
      type: 'custom',
      accept: (value: unknown) => checkPrivateJwks(value),
      doc: 'Private signing keys (win over jwksFile).',
    },
    store: {
      type: 'custom',
      accept: object<IdpStore>('an IdpStore (adapter, initState, close)'),
      doc: 'A store built by the caller (the edge worker’s D1 store); wins over databaseUrl.',
    },
    logger: {
      type: 'custom',
      accept: object<Logger>('a pino logger'),
      default: silentLogger,
      doc: 'Where the IdP logs (silent by default; the CLI logs JSON lines to stderr at --log-level).',
    },
  },
  {
    publicClientNeedsRedirectUri: (s, name) =>
      s.publicClient && s.redirectUris.length === 0
        ? `${name('publicClient')} needs at least one ${name('redirectUris')}`
        : undefined,
    registrationTokenNeedsRegistration: (s, name) =>
      s.registrationInitialAccessToken && !s.enableRegistration
        ? `${name('registrationInitialAccessToken')} needs ${name('enableRegistration')}`
        : undefined,
    saveJwksNeedsJwksFile: (s, name) =>
      s.saveJwks && !s.jwksFile ? `${name('saveJwks')} needs ${name('jwksFile')} (where to save them)` : undefined,
    testingApiOnLoopbackOnly: (s, name) =>
      s.enableTestingApi && !isLoopbackHostname(s.host) && !s.allowTestingApiOnPublicHost
        ? `${name('enableTestingApi')} lets anyone mint tokens and change the clock: refusing it on ${s.host}, which is not a loopback address (use ${name('host')} 127.0.0.1, or add ${name('allowTestingApiOnPublicHost')} if that is really wanted)`
        : undefined,
    usersScopesAreAccepted: (s, name) => {
      const users = [
        ...(s.users ?? []).map((user) => ({ user, from: name('users') })),
        ...(s.defaultUser ? [{ user: s.defaultUser, from: name('defaultUser') }] : []),
      ];
      for (const { user, from } of users) {
        const unknown = (user.scopes ?? []).filter((scope) => !s.scopes.includes(scope));
        if (unknown.length)
          return `${from}: user "${user.sub}" has scopes the provider does not accept (${unknown.join(', ')}); add them to ${name('scopes')} or fix the spelling`;
      }
      return undefined;
    },
    metadataDocumentHostsNeedTheFeature: (s, name) =>
      s.clientIdMetadataDocumentHosts.length && !s.enableClientIdMetadataDocument
        ? `${name('clientIdMetadataDocumentHosts')} needs ${name('enableClientIdMetadataDocument')}`
        : undefined,
    tlsCertNeedsItsKey: (s, name) =>
      Boolean(s.tlsCert) !== Boolean(s.tlsKey)
        ? `${name(s.tlsCert ? 'tlsCert' : 'tlsKey')} needs ${name(s.tlsCert ? 'tlsKey' : 'tlsCert')}`
        : undefined,
    httpsOrTlsFiles: (s, name) =>
      s.https && s.tlsCert
        ? `${name('https')} makes a certificate: give it or ${name('tlsCert')}/${name('tlsKey')}, not both`
        : undefined,
    tlsCaOutNeedsHttps: (s, name) =>
      s.tlsCaOut && !s.https
        ? `${name('tlsCaOut')} needs ${name('https')} (the CA it writes is made by it)`
        : undefined,
    tlsIssuerIsHttps: (s, name) =>
      (s.https || s.tlsCert) && s.issuer?.startsWith('http:')
        ? `${name('issuer')} must be an https:// URL when the IdP serves HTTPS`
        : undefined,
    personalitiesAreKnown: (s, name) => {
      const problem = personalityProblem(s.personality, s.tenants);
      return problem ? `${name('personality')} ${problem}` : undefined;
    },
    tenantsNeedTheirOwnStores: (s, name) =>
      s.store && s.tenants.length > 1
        ? `${name('tenants')} need a store each: give ${name('databaseUrl')} (or nothing, for memory), not ${name('store')}`
        : undefined,
  },
);

/** What `createIdp` accepts: any setting, by its key, of its declared type. */
export type IdpOptions = SettingsInput<typeof idpSettings.settings>;

/** The IdP's settings once resolved: complete, validated, frozen — what every part of the IdP reads. */
export type IdpConfig = SettingsOf<typeof idpSettings.settings>;

export type AccessTokenFormat = IdpConfig['accessTokenFormat'];

/** `createIdp`'s door: options given in code, validated as the CLI validates flags, into one frozen configuration. */
export function resolveIdpConfig(options: IdpOptions = {}): IdpConfig {
  return loadSettings(idpSettings, { given: options });
}
