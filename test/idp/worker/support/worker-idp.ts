/**
 * The edge worker as a RunningIdp for the relying-party helpers: the bundle (built once, cached on disk) served by
 * workerd through miniflare on 127.0.0.1 port 0, with a local D1 database (optionally shared with other instances).
 */
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Provider from 'oidc-provider';
import { fromRoot } from '../../../../lib/project-root.js';
import * as oidc from 'openid-client';
import type { RunningIdp } from '../../../../idp/create-idp.js';
import { idpSettings, type IdpOptions } from '../../../../idp/settings.js';
import type { SettingDeclarations } from '../../../../lib/settings/declaration.js';
import { valueType } from '../../../../lib/settings/value-types.js';
import type { StaticClient } from '../../../../idp/static-client.js';
import { buildWorkerBundle } from '../../../../idp/worker/build.js';
import { startLocalWorker } from '../../../../idp/worker/local-worker.js';

let bundle: Promise<string> | undefined;

/**
 * Where tests keep their bundle: a directory under the system temp dir, one per checkout, so test runs never
 * write under idp/worker/dist (which `npm start` and deploys use) and still reuse the bundle between runs.
 */
export function testBundleDir(): string {
  return join(tmpdir(), `gatehouse-idp-worker-${createHash('sha256').update(fromRoot()).digest('hex').slice(0, 12)}`);
}

/** The bundle path; the first call builds it (or reuses the cached one when its inputs did not change). */
export function workerBundle(): Promise<string> {
  bundle ??= buildWorkerBundle({ outDir: testBundleDir() }).then((b) => b.path);
  return bundle;
}

export interface WorkerIdpOptions {
  vars?: Record<string, string>;
  d1Dir?: string;
  withD1?: boolean;
}

/** Starts one worker instance; the configured client is read back from the variables the test set. */
export async function startWorkerIdp(options: WorkerIdpOptions = {}): Promise<RunningIdp> {
  const vars = options.vars ?? {};
  const worker = await startLocalWorker({
    scriptPath: await workerBundle(),
    vars,
    d1Dir: options.d1Dir,
    withD1: options.withD1,
  });
  const issuer = vars.IDP_ISSUER ?? worker.url;
  const redirectUris = vars.IDP_REDIRECT_URI ? vars.IDP_REDIRECT_URI.split(',') : [];
  const postLogoutRedirectUris = vars.IDP_POST_LOGOUT_REDIRECT_URI ? [vars.IDP_POST_LOGOUT_REDIRECT_URI] : [];
  const isPublic = vars.IDP_PUBLIC_CLIENT === 'true';
  const client: StaticClient = {
    clientId: vars.IDP_CLIENT_ID ?? '',
    clientSecret: isPublic ? undefined : vars.IDP_CLIENT_SECRET,
    redirectUris,
    postLogoutRedirectUris,
    grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'],
    metadata: {
      client_id: vars.IDP_CLIENT_ID ?? '',
      client_secret: isPublic ? undefined : vars.IDP_CLIENT_SECRET,
      redirect_uris: redirectUris,
    },
  };
  const registration = vars.IDP_ENABLE_REGISTRATION === 'true';
  return {
    url: worker.url,
    issuer,
    discoveryUrl: `${issuer}/.well-known/openid-configuration`,
    client,
    registrationEndpoint: registration ? `${worker.url}/register` : undefined,
    registrationInitialAccessToken: registration ? vars.IDP_REGISTRATION_INITIAL_ACCESS_TOKEN : undefined,
    get provider(): Provider {
      throw new Error('the worker runs in workerd: there is no in-process oidc-provider instance');
    },
    ready: async () => undefined,
    close: () => worker.close(),
  };
}

/**
 * The relying-party configuration for one instance: its own discovery document (the shared issuer, endpoints on
 * the instance's host), so a test can talk to a chosen instance of one deployment.
 */
export async function discoverInstance(
  idp: RunningIdp,
  clientId = idp.client.clientId,
  secret = idp.client.clientSecret,
): Promise<oidc.Configuration> {
  const response = await fetch(`${idp.url}/.well-known/openid-configuration`);
  if (!response.ok) throw new Error(`discovery at ${idp.url} answered ${response.status}`);
  const metadata = (await response.json()) as oidc.ServerMetadata;
  const config = new oidc.Configuration(
    metadata,
    clientId,
    secret,
    secret ? oidc.ClientSecretPost(secret) : oidc.None(),
  );
  oidc.allowInsecureRequests(config);
  return config;
}

/** Options a worker cannot take as variables (in-process objects, or state that lives in D1). */
const NOT_VARIABLES = ['clients', 'jwks', 'store', 'jwksFile', 'saveJwks', 'databaseUrl'] as const;
const IGNORED = ['port', 'host', 'logger'] as const;

/**
 * `createIdp(options)` for the worker: the same options, passed as the IDP_* variables they stand for (so a
 * relying-party test written for the Node IdP can run against the worker by swapping its factory). The client id
 * and secret are generated here when not given, so `idp.client` is known to the test as with createIdp.
 */
export async function createWorkerIdp(
  options: IdpOptions & Pick<WorkerIdpOptions, 'd1Dir' | 'withD1'> = {},
): Promise<RunningIdp> {
  const { d1Dir, withD1, ...idpOptions } = options;
  const unsupported = NOT_VARIABLES.filter((name) => idpOptions[name] !== undefined);
  if (unsupported.length) throw new Error(`not available on the worker: ${unsupported.join(', ')}`);
  const random = () => Buffer.from(crypto.getRandomValues(new Uint8Array(12))).toString('base64url');
  const vars: Record<string, string> = {
    IDP_CLIENT_ID: `worker-client-${random()}`,
    IDP_CLIENT_SECRET: random(),
    IDP_LOG_LEVEL: 'silent',
  };
  const settings: SettingDeclarations = idpSettings.settings;
  for (const [name, value] of Object.entries(idpOptions)) {
    if (value === undefined || (IGNORED as readonly string[]).includes(name)) continue;
    const setting = settings[name];
    if (!setting?.env) throw new Error(`createWorkerIdp: no worker variable for option "${name}"`);
    vars[setting.env] = valueType(setting).format(value, setting);
  }
  return startWorkerIdp({ vars, d1Dir, withD1 });
}
