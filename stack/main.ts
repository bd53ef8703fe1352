/**
 * `npm start`: the stub IdP on 127.0.0.1:8484 and the registration service on 127.0.0.1:3000, wired together
 * (the service trusts the IdP's JWKS and introspection), with demo data; Ctrl-C stops both.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_USER } from '../idp/accounts.js';
import { createIdp, type RunningIdp } from '../idp/create-idp.js';
import { DEFAULT_SCOPES } from '../idp/settings.js';
import { main as serviceMain } from '../server/main.js';
import {
  audienceFor,
  DEMO,
  demoSeed,
  internalAudienceFor,
  PORTLESS_AUDIENCE,
  PORTLESS_INTERNAL_AUDIENCE,
  serviceUrl,
} from './demo.js';
import { seedDemoRegistrations } from './demo-registrations.js';
import { nextSteps } from './next-steps.js';
import type { StackConfig } from './settings.js';
import type { StackUrls } from './stack-urls.js';
import { removeStackFile, stackFile, writeStackFile } from './state-file.js';

export interface StackOptions {
  /** The environment the service reads its own settings from (default: this process's). */
  env?: Record<string, string | undefined>;
  signal?: AbortSignal;
  stdout?: { write(text: string): unknown };
  stderr?: { write(text: string): unknown };
  /** Called once both listen. */
  onReady?: (urls: StackUrls) => void;
}

/**
 * Quiet by default: the terminal shows warnings and errors; `debug` adds the service's info lines (start/stop
 * details and one access line per request), `trace` its debug lines.
 */
function serviceLogLevel(stackLevel: string): string {
  return ({ debug: 'info', trace: 'debug' } as Record<string, string>)[stackLevel] ?? stackLevel;
}

/** Runs the stack with `npm start`'s settings (stack/settings.ts) until `signal` aborts; resolves to an exit code. */
export async function runStack(config: StackConfig, options: StackOptions = {}): Promise<number> {
  const env = options.env ?? process.env;
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const { idpPort, port: servicePort, internalPort } = config;
  // The IdP must know the service's audience before the service listens; with PORT=0 its URL is only known
  // later, so the audience is then a stable name instead of a URL (API_AUTH_AUDIENCE overrides both).
  const audience =
    env.API_AUTH_AUDIENCE ?? (servicePort === 0 ? PORTLESS_AUDIENCE : audienceFor(serviceUrl(servicePort)));
  const internalAudience =
    env.INTERNAL_AUTH_AUDIENCE ??
    (internalPort === 0 ? PORTLESS_INTERNAL_AUDIENCE : internalAudienceFor(serviceUrl(internalPort)));

  // The console signs reviewers in through the IdP; its redirect URI needs the internal port known up front.
  const consoleBaseUrl = internalPort === 0 ? undefined : `${serviceUrl(internalPort)}/console`;

  const reviewerUser = {
    sub: DEMO.reviewer,
    name: 'Rita Reviewer',
    preferred_username: 'rita',
    email: 'rita@example.com',
    email_verified: true,
  };
  // Only the reviewer may get the review and admin scopes: API users are granted every other scope, whatever they ask.
  const apiUserScopes = DEFAULT_SCOPES.filter((scope) => !(DEMO.reviewerScopes as readonly string[]).includes(scope));
  let idp: RunningIdp;
  try {
    idp = await createIdp({
      port: idpPort,
      host: DEMO.host,
      clientId: DEMO.clientId,
      clientSecret: DEMO.clientSecret,
      redirectUris: [DEMO.redirectUri],
      users: [
        { ...DEMO_USER, scopes: apiUserScopes },
        {
          sub: DEMO.otherUser,
          scopes: apiUserScopes,
          name: 'Bob Example',
          preferred_username: 'bob',
          email: 'bob@example.com',
          email_verified: true,
        },
        {
          sub: DEMO.selfScanUser,
          scopes: apiUserScopes,
          name: 'Sam Scanner',
          preferred_username: 'sam',
          email: 'sam@example.com',
          email_verified: true,
        },
        reviewerUser,
      ],
      // Headless sign-in without a login_hint (the review console) is the reviewer's; tokens for alice and bob
      // name them with login_hint (`npm run token`).
      defaultUser: reviewerUser,
      skipPrompt: true,
      accessTokenFormat: 'jwt',
      defaultAudience: audience,
      enableRegistration: true,
      registrationInitialAccessToken: DEMO.registrationInitialAccessToken,
      clients: consoleBaseUrl
        ? [
            {
              client_id: DEMO.consoleClientId,
              client_secret: DEMO.consoleClientSecret,
              redirect_uris: [`${consoleBaseUrl}/callback`],
              post_logout_redirect_uris: [consoleBaseUrl],
              grant_types: ['authorization_code'],
              response_types: ['code'],
            },
          ]
        : [],
    });
  } catch (err) {
    stderr.write(`gatehouse: cannot start the IdP on ${DEMO.host}:${idpPort}: ${(err as Error).message}\n`);
    return 1;
  }

  const dir = await mkdtemp(join(tmpdir(), 'gatehouse-'));
  const seedFile = join(dir, 'demo-seed.json');
  await writeFile(seedFile, JSON.stringify(demoSeed()));
  const controller = new AbortController();
  options.signal?.addEventListener('abort', () => controller.abort(), { once: true });

  let service = '';
  const stateFile = stackFile(env);
  let ready: Promise<void> = Promise.resolve();
  const serviceEnv: Record<string, string | undefined> = {
    ...env,
    LOG_LEVEL: serviceLogLevel(config.logLevel),
    HOST: DEMO.host,
    PORT: String(servicePort),
    API_AUTH_ISSUER: idp.issuer,
    API_AUTH_CLIENT_ID: DEMO.clientId,
    API_AUTH_CLIENT_SECRET: DEMO.clientSecret,
    API_AUTH_AUDIENCE: audience,
    INTERNAL_PORT: String(internalPort),
    INTERNAL_AUTH_AUDIENCE: internalAudience,
    ...(consoleBaseUrl
      ? {
          CONSOLE_OIDC_CLIENT_ID: DEMO.consoleClientId,
          CONSOLE_OIDC_CLIENT_SECRET: DEMO.consoleClientSecret,
          CONSOLE_BASE_URL: consoleBaseUrl,
        }
      : {}),
    // Approved registrations become real clients at the IdP (RFC 7591/7592). The key only protects the demo's
    // registration access tokens; it is fixed so a MongoDB-backed demo can read them after a restart.
    PROVISIONING_REGISTRATION_ENDPOINT: env.PROVISIONING_REGISTRATION_ENDPOINT ?? idp.registrationEndpoint,
    PROVISIONING_INITIAL_ACCESS_TOKEN: env.PROVISIONING_INITIAL_ACCESS_TOKEN ?? DEMO.registrationInitialAccessToken,
    PROVISIONING_ENCRYPTION_KEY:
      env.PROVISIONING_ENCRYPTION_KEY ??
      createHash('sha256').update('gatehouse demo provisioning key').digest('base64'),
    // Our IdP keeps the previous client secret working for a rotation's grace (client_secret_previous_expires_at).
    PROVISIONING_SECRET_OVERLAP: env.PROVISIONING_SECRET_OVERLAP ?? 'true',
    // The demo's webhook receivers run on this machine (loopback, plain http).
    WEBHOOKS_ALLOW_PRIVATE_TARGETS: env.WEBHOOKS_ALLOW_PRIVATE_TARGETS ?? 'true',
    SEED_FILE: seedFile,
  };
  const code = await serviceMain(
    [],
    serviceEnv,
    { stdout, stderr },
    {
      signal: controller.signal,
      onListening: (url, internal) => {
        service = url;
        const urls = { idp: idp.url, service, internal, audience, internalAudience };
        writeStackFile(stateFile, urls);
        // The demo's registrations go through the API itself, so the tour's first calls find something.
        ready = seedDemoRegistrations(urls)
          .catch((err: Error) => {
            stderr.write(`gatehouse: the demo registrations were not created: ${err.message}\n`);
          })
          .then(() => {
            if (controller.signal.aborted) return;
            stdout.write(nextSteps(urls));
            options.onReady?.(urls);
          });
      },
    },
  );
  await ready;
  removeStackFile(stateFile);
  await idp.close();
  await rm(dir, { recursive: true, force: true });
  if (code === 0 && service) stdout.write('gatehouse: stopped\n');
  return code;
}
