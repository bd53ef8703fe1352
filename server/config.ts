/**
 * The registration service's settings (docs/architecture.md §1.1), declared once with the rules between them: read from the
 * environment (and `--seed`) at start, every problem listed, then frozen. `--help` and the README table come from here.
 */
import { LOG_LEVELS } from '../lib/logger.js';
import { defineSettings, type SettingsOf } from '../lib/settings/declaration.js';
import { loadSettings } from '../lib/settings/load-settings.js';
import { consoleSettings } from './internal/console/console-settings-spec.js';
import { originProblem } from './middleware/cors.js';
import { parseTrustProxy } from './middleware/trust-proxy.js';

const JWT_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
] as const;

export const serviceSettings = defineSettings(
  {
    port: {
      env: 'PORT',
      type: 'port',
      default: 3000,
      doc: 'Public API listener port (0 picks a free port).',
    },
    host: { env: 'HOST', type: 'string', default: '127.0.0.1', doc: 'Public API listener address.' },
    internalPort: {
      env: 'INTERNAL_PORT',
      type: 'port',
      default: 3001,
      doc: 'Reviewer/admin surface listener port; never served on the public listener.',
    },
    publicBaseUrl: {
      env: 'PUBLIC_BASE_URL',
      type: 'url',
      defaultDoc: '`http://HOST:PORT`',
      default: (c) => `http://${c.host as string}:${c.port as number}`,
      doc: 'Absolute URLs (Location, pagination links) are built from this, never from the Host header.',
    },
    // The reviewer side: the internal surface's audience and provisioning at the AS.
    internalAuthAudience: {
      env: 'INTERNAL_AUTH_AUDIENCE',
      type: 'string',
      defaultDoc: '`http://HOST:INTERNAL_PORT/internal`',
      default: (c) => `http://${c.host as string}:${c.internalPort as number}/internal`,
      doc: 'Expected `aud` of access tokens on the internal (reviewer/admin) surface; scopes `gatehouse:review`, `gatehouse:admin`.',
    },
    ...consoleSettings,
    provisioningRegistrationEndpoint: {
      env: 'PROVISIONING_REGISTRATION_ENDPOINT',
      type: 'url',
      doc: 'RFC 7591 registration endpoint of the authorization server; set → approvals register clients there (RFC 7592 updates and deletes).',
    },
    provisioningInitialAccessToken: {
      env: 'PROVISIONING_INITIAL_ACCESS_TOKEN',
      type: 'string',
      secret: true,
      doc: 'Initial access token for the registration endpoint (RFC 7591 §3); required with PROVISIONING_REGISTRATION_ENDPOINT.',
    },
    provisioningEncryptionKey: {
      env: 'PROVISIONING_ENCRYPTION_KEY',
      type: 'string',
      secret: true,
      check: (key) =>
        Buffer.from(key, 'base64').length === 32 ? undefined : 'must be the base64 of exactly 32 bytes (AES-256-GCM)',
      doc: 'Base64 of 32 random bytes: AES-256-GCM key for registration access tokens and webhook signing secrets at rest; required with PROVISIONING_REGISTRATION_ENDPOINT, and for webhooks with MONGODB_URI (without it creating one answers 409).',
    },
    provisioningRetryS: {
      env: 'PROVISIONING_RETRY_S',
      type: 'integer',
      min: 1,
      max: 3600,
      default: 5,
      doc: 'First retry delay of a failed provisioning step, doubled per attempt (capped at 10 minutes).',
    },
    provisioningMaxAttempts: {
      env: 'PROVISIONING_MAX_ATTEMPTS',
      type: 'integer',
      min: 1,
      max: 1000,
      default: 20,
      doc: 'Attempts before a provisioning step is marked failed (an admin can retry it).',
    },
    provisioningSecretOverlap: {
      env: 'PROVISIONING_SECRET_OVERLAP',
      type: 'boolean',
      default: false,
      doc: 'Whether the authorization server keeps the previous client secret working for a grace period after a rotation (`client_secret_previous_expires_at`, as our IdP does); without it every rotation is immediate. `npm start` sets it for our IdP.',
    },
    webhooksRetryBaseMs: {
      env: 'WEBHOOKS_RETRY_BASE_MS',
      type: 'integer',
      min: 10,
      max: 3_600_000,
      default: 30_000,
      doc: 'Wait before the first retry of a failed webhook delivery, doubled after each attempt; deliveries are retried for 24 h.',
    },
    webhooksAllowPrivateTargets: {
      env: 'WEBHOOKS_ALLOW_PRIVATE_TARGETS',
      type: 'boolean',
      default: false,
      doc: 'Let webhooks point at http URLs and at loopback and private addresses (tests, the demo: `npm start` sets it). Off: https only, to public addresses, checked again at every delivery.',
    },
    mongodbUri: {
      env: 'MONGODB_URI',
      type: 'url',
      protocols: ['mongodb:', 'mongodb+srv:'],
      secret: true,
      doc: 'MongoDB connection string; unset → the embedded in-process store.',
    },
    cursorSecret: {
      env: 'CURSOR_SECRET',
      type: 'string',
      secret: true,
      check: (secret) => (secret.length < 32 ? 'must be at least 32 characters' : undefined),
      defaultDoc: 'random per process',
      doc: 'HMAC key of pagination cursors (≥ 32 characters). Set the same value on every instance behind one load balancer, or a cursor works only on the instance that issued it.',
    },
    migrateOnStart: {
      env: 'MIGRATE_ON_START',
      type: 'boolean',
      default: false,
      doc: 'With MONGODB_URI: run the migration (`npm run db:migrate`) before serving; otherwise an unmigrated or older database stops the start.',
    },
    seedFile: {
      flag: '--seed',
      env: 'SEED_FILE',
      valueName: '<file>',
      type: 'string',
      doc: 'YAML or JSON file of organizations, grants and registrations loaded (upserted) at start.',
    },
    authIssuer: {
      env: 'API_AUTH_ISSUER',
      type: 'url',
      default: 'http://127.0.0.1:8484',
      doc: 'Expected `iss` of access tokens; its discovery document gives the JWKS and introspection endpoints unless set below.',
    },
    authAudience: {
      env: 'API_AUTH_AUDIENCE',
      type: 'string',
      defaultDoc: '`PUBLIC_BASE_URL` + `/api/v1`',
      default: (c) => `${String(c.publicBaseUrl).replace(/\/$/, '')}/api/v1`,
      doc: 'Expected `aud` of JWTs and of introspected tokens.',
    },
    authJwksUri: { env: 'API_AUTH_JWKS_URI', type: 'url', defaultDoc: 'from discovery', doc: 'JWKS location.' },
    authAlgorithms: {
      env: 'API_AUTH_ALGORITHMS',
      type: 'list',
      choices: JWT_ALGORITHMS,
      default: ['RS256', 'PS256', 'ES256'],
      check: (algorithms) =>
        algorithms.includes('EdDSA')
          ? 'EdDSA is not supported by express-jwt (jsonwebtoken 9); use RS*, PS* or ES*'
          : undefined,
      doc: 'Allowed JWT signature algorithms; `none` and HS* are never accepted.',
    },
    authClockToleranceS: {
      env: 'API_AUTH_CLOCK_TOLERANCE_S',
      type: 'integer',
      min: 0,
      max: 60,
      default: 30,
      doc: 'Clock skew allowed on `exp`/`nbf`/`iat`, in seconds.',
    },
    authIntrospectionUrl: {
      env: 'API_AUTH_INTROSPECTION_URL',
      type: 'url',
      defaultDoc: 'from discovery',
      doc: 'RFC 7662 introspection endpoint.',
    },
    authClientId: {
      env: 'API_AUTH_CLIENT_ID',
      type: 'string',
      doc: 'Client id this service authenticates with at the introspection endpoint.',
    },
    authClientSecret: {
      env: 'API_AUTH_CLIENT_SECRET',
      type: 'string',
      secret: true,
      doc: 'Client secret for introspection (client_secret_basic).',
    },
    authTokenTypes: {
      env: 'API_AUTH_TOKEN_TYPES',
      type: 'list',
      choices: ['jwt', 'opaque'],
      defaultDoc: '`jwt,opaque` when `API_AUTH_CLIENT_ID` and `API_AUTH_CLIENT_SECRET` are set, else `jwt`',
      // Introspection needs the service's own client credentials (RFC 7662 §2.1): without them, opaque tokens are
      // off by default rather than a start-up failure; asking for `opaque` explicitly without them is an error.
      default: (c) => (c.authClientId && c.authClientSecret ? ['jwt', 'opaque'] : ['jwt']),
      check: (types) => (types.length ? undefined : 'must name at least one of jwt, opaque'),
      doc: 'Accepted token kinds: JWT access tokens (RFC 9068) and/or opaque tokens (RFC 7662 introspection).',
    },
    authIntrospectionCacheS: {
      env: 'API_AUTH_INTROSPECTION_CACHE_S',
      type: 'integer',
      min: 0,
      max: 3600,
      default: 60,
      doc: "Introspection results are cached by SHA-256 of the token for this long, never past the token's `exp`.",
    },
    resolutionCacheMs: {
      env: 'API_RESOLUTION_CACHE_MS',
      type: 'integer',
      min: 0,
      max: 10000,
      default: 1000,
      doc: "On MongoDB, each instance reuses the grant and organization it resolved for a request this long (0: never). This instance's own changes apply at once; a grant revoked or a plan changed on another instance still applies here for up to this long.",
    },
    defaultOrganizationEnabled: {
      env: 'API_DEFAULT_ORGANIZATION_ENABLED',
      type: 'boolean',
      default: false,
      doc: 'Mounts the default-organization route tree (paths without `/organizations/{organizationId}`).',
    },
    rateLimitFree: {
      env: 'RATE_LIMIT_PER_MINUTE_FREE',
      type: 'integer',
      min: 1,
      default: 60,
      doc: 'Requests a minute per subject and organization on the free plan.',
    },
    rateLimitPro: {
      env: 'RATE_LIMIT_PER_MINUTE_PRO',
      type: 'integer',
      min: 1,
      default: 600,
      doc: 'Requests a minute per subject and organization on the pro plan.',
    },
    rateLimitEnterprise: {
      env: 'RATE_LIMIT_PER_MINUTE_ENTERPRISE',
      type: 'integer',
      min: 1,
      default: 6000,
      doc: 'Requests a minute per subject and organization on the enterprise plan.',
    },
    logLevel: {
      env: 'LOG_LEVEL',
      type: 'enum',
      choices: LOG_LEVELS,
      default: 'info',
      doc: 'pino log level (JSON lines on stdout).',
    },
    // Operating it: the audience rule, metrics, database limits, browsers, proxies, shutdown (docs/operations.md).
    authAllowMissingAudience: {
      env: 'API_AUTH_ALLOW_MISSING_AUDIENCE',
      type: 'boolean',
      default: false,
      doc: 'Accept introspected tokens whose answer has no `aud` on the public API. Weaker: any token of the authorization server then passes, whatever resource it was issued for. Never on the internal surface.',
    },
    metricsEnabled: {
      env: 'METRICS_ENABLED',
      type: 'boolean',
      default: true,
      doc: 'Serve Prometheus metrics at `GET /metrics` on the internal listener.',
    },
    dbQueryTimeoutMs: {
      env: 'DB_QUERY_TIMEOUT_MS',
      type: 'integer',
      min: 100,
      max: 600000,
      default: 5000,
      doc: 'With MONGODB_URI: the server-side time limit of every query (`maxTimeMS`); a slower one answers 503.',
    },
    outboxDrainIntervalMs: {
      env: 'OUTBOX_DRAIN_INTERVAL_MS',
      type: 'integer',
      min: 100,
      max: 3600000,
      default: 5000,
      doc: 'How often each instance delivers audit entries and provisioning steps that a crash or an outage left undelivered (normally none).',
    },
    webhooksPollIntervalMs: {
      env: 'WEBHOOKS_POLL_INTERVAL_MS',
      type: 'integer',
      min: 100,
      max: 3600000,
      default: 1000,
      doc: 'How often each instance looks for webhook events other instances wrote, secret notices that came due and deliveries whose retry time has come. No polling with MONGODB_URI and no PROVISIONING_ENCRYPTION_KEY (no webhook can exist).',
    },
    requireDatabaseAtStart: {
      env: 'REQUIRE_DATABASE_AT_START',
      type: 'boolean',
      default: false,
      doc: 'With MONGODB_URI: exit (naming the host and the cause) when the database does not answer at start, instead of starting not ready and becoming ready when it answers.',
    },
    corsAllowedOrigins: {
      env: 'CORS_ALLOWED_ORIGINS',
      type: 'list',
      defaultDoc: 'none',
      doc: 'Origins (scheme://host[:port], exact) whose browsers may call the public API; their preflights are answered without a token. Never `*`.',
    },
    trustProxy: {
      env: 'TRUST_PROXY',
      type: 'string',
      defaultDoc: 'off',
      doc: "Express's `trust proxy`: the number of proxies in front, or their addresses/CIDR ranges (comma-separated); the access log then takes the client address from `X-Forwarded-For`.",
    },
    shutdownGraceMs: {
      env: 'SHUTDOWN_GRACE_MS',
      type: 'integer',
      min: 0,
      max: 600000,
      default: 10000,
      doc: 'On SIGTERM/SIGINT: how long requests in flight may take to finish before their connections are closed.',
    },
  },
  {
    corsOriginsExact: (c) =>
      c.corsAllowedOrigins
        .map(originProblem)
        .filter((problem) => problem !== undefined)
        .join('; ') || undefined,
    trustProxyBounded: (c) => {
      const parsed = parseTrustProxy(c.trustProxy);
      return 'problems' in parsed ? parsed.problems.join('; ') : undefined;
    },
    algorithmsForJwt: (c, name) =>
      c.authTokenTypes.includes('jwt') && c.authAlgorithms.length === 0
        ? `${name('authAlgorithms')} must name at least one algorithm when JWTs are accepted`
        : undefined,
    // RFC 7662 §2.1: the introspection endpoint requires the protected resource to authenticate.
    opaqueNeedsIntrospectionCredentials: (c, name) =>
      c.authTokenTypes.includes('opaque') && (!c.authClientId || !c.authClientSecret)
        ? `${name('authClientId')} and ${name('authClientSecret')} are required when ${name('authTokenTypes')} includes opaque ` +
          `(RFC 7662 introspection is authenticated); set them, or set ${name('authTokenTypes')}=jwt`
        : undefined,
    provisioningNeedsTokenAndKey: (c, name) =>
      c.provisioningRegistrationEndpoint && (!c.provisioningInitialAccessToken || !c.provisioningEncryptionKey)
        ? `${name('provisioningInitialAccessToken')} and ${name('provisioningEncryptionKey')} are required when ${name('provisioningRegistrationEndpoint')} is set`
        : undefined,
  },
);

export type ServiceConfig = SettingsOf<typeof serviceSettings.settings>;

/** Reads the service's settings from the environment and `--seed` (flag values from readCommandLine). */
export function loadServiceConfig(
  env: Record<string, string | undefined> = process.env,
  flags: Record<string, unknown> = {},
): ServiceConfig {
  return loadSettings(serviceSettings, { env, flags });
}
