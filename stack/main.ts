/**
 * `npm start`: the stub IdP on 127.0.0.1:8484 and the registration service on 127.0.0.1:3000, wired together
 * (the service trusts the IdP's JWKS and introspection), with demo data; Ctrl-C stops both.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_USER } from '../idp/accounts.js';
import { createIdp, type RunningIdp } from '../idp/create-idp.js';
import { main as serviceMain } from '../server/main.js';
import { audienceFor, DEMO, demoSeed, PORTLESS_AUDIENCE, serviceUrl } from './demo.js';
import { nextSteps } from './next-steps.js';

export interface StackOptions {
  idpPort?: number;
  servicePort?: number;
  env?: Record<string, string | undefined>;
  signal?: AbortSignal;
  stdout?: { write(text: string): unknown };
  stderr?: { write(text: string): unknown };
  /** Called once both listen. */
  onReady?: (urls: { idp: string; service: string; audience: string }) => void;
}

/** Runs the stack until `signal` aborts; resolves to an exit code. */
export async function runStack(options: StackOptions = {}): Promise<number> {
  const env = options.env ?? process.env;
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const idpPort = options.idpPort ?? Number(env.IDP_PORT ?? DEMO.idpPort);
  const servicePort = options.servicePort ?? Number(env.PORT ?? DEMO.servicePort);
  // The IdP must know the service's audience before the service listens; with PORT=0 its URL is only known
  // later, so the audience is then a stable name instead of a URL (API_AUTH_AUDIENCE overrides both).
  const audience = env.API_AUTH_AUDIENCE ?? (servicePort === 0 ? PORTLESS_AUDIENCE : audienceFor(serviceUrl(servicePort)));

  let idp: RunningIdp;
  try {
    idp = await createIdp({
      port: idpPort,
      host: DEMO.host,
      clientId: DEMO.clientId,
      clientSecret: DEMO.clientSecret,
      redirectUris: [DEMO.redirectUri],
      users: [DEMO_USER, { sub: DEMO.otherUser, name: 'Bob Example', preferred_username: 'bob', email: 'bob@example.com', email_verified: true }],
      skipPrompt: true,
      accessTokenFormat: 'jwt',
      defaultAudience: audience,
      enableRegistration: true,
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
  const serviceEnv: Record<string, string | undefined> = {
    LOG_LEVEL: 'warn',
    ...env,
    HOST: DEMO.host,
    PORT: String(servicePort),
    API_AUTH_ISSUER: idp.issuer,
    API_AUTH_CLIENT_ID: DEMO.clientId,
    API_AUTH_CLIENT_SECRET: DEMO.clientSecret,
    API_AUTH_AUDIENCE: audience,
    SEED_FILE: seedFile,
  };
  const code = await serviceMain([], serviceEnv, { stdout, stderr }, {
    signal: controller.signal,
    onListening: (url) => {
      service = url;
      stdout.write(nextSteps({ idp: idp.url, service, audience }));
      options.onReady?.({ idp: idp.url, service, audience });
    },
  });
  await idp.close();
  await rm(dir, { recursive: true, force: true });
  if (code === 0 && service) stdout.write('gatehouse: stopped\n');
  return code;
}
