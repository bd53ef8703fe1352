/**
 * One review console for a test file: the embedded store with a few registrations waiting for review, the internal
 * app (`createInternalApp`, which mounts `createConsoleRouter` at /console) on 127.0.0.1 port 0, and our IdP (real
 * login page unless `skipPrompt`) with the console as its client. `close()` releases everything.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RequestListener } from 'node:http';
import { createLogger } from '../../../../lib/logger.js';
import { createIdp, type RunningIdp } from '../../../../idp/index.js';
import type { IdpUser } from '../../../../idp/accounts.js';
import type { Store } from '../../../../server/deps.js';
import { createMemoryStore } from '../../../../server/store/memory-store.js';
import type {
  Registration,
  RegistrationConfig,
} from '../../../../server/components/registrations/registrations.model.js';
import { loadServiceConfig } from '../../../../server/config.js';
import { createInternalApp } from '../../../../server/internal/app.js';

export const REVIEWER: IdpUser = {
  sub: 'rita',
  name: 'Rita Reviewer',
  email: 'rita@example.com',
  email_verified: true,
};

export interface ConsoleHarness {
  /** e.g. http://127.0.0.1:41234/console */
  consoleUrl: string;
  store: Store;
  idp: RunningIdp;
  organizationId: string;
  /** A pending registration submitted by someone else (its id comes from its name: use distinct names). */
  pending(name: string, submittedBy?: string): Promise<Registration>;
  /** An active registration with a pending change set proposed by `proposedBy`. */
  withChangeSet(name: string, changes: Partial<RegistrationConfig>, proposedBy?: string): Promise<Registration>;
  close(): Promise<void>;
}

export interface ConsoleHarnessOptions {
  skipPrompt?: boolean;
  /** Scopes the IdP accepts (default: all of its own). */
  idpScopes?: string[];
}

const WEB_CONFIG: RegistrationConfig = {
  redirectUris: ['https://app.example.com/callback'],
  grantTypes: ['authorization_code', 'refresh_token'],
  responseTypes: ['code'],
  tokenEndpointAuthMethod: 'client_secret_basic',
  scopes: ['openid', 'profile'],
};

export async function startConsole(options: ConsoleHarnessOptions = {}): Promise<ConsoleHarness> {
  const store = createMemoryStore();
  const clock = () => new Date();
  // The redirect URI needs the port, the app needs the IdP: listen first, hand requests to the app once it exists.
  // eslint-disable-next-line prefer-const -- assigned once the IdP exists; the handler below reads it before then.
  let app: RequestListener | undefined;
  const server: Server = createServer((req, res) => {
    if (app) app(req, res);
    else res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const redirectUri = `${origin}/console/callback`;
  const logger = createLogger({ level: 'silent', name: 'console-test' });
  let idp: RunningIdp;
  try {
    idp = await createIdp({
      port: 0,
      redirectUris: [redirectUri],
      users: [REVIEWER],
      skipPrompt: options.skipPrompt ?? false,
      ...(options.idpScopes && { scopes: options.idpScopes }),
      logger,
    });
  } catch (error) {
    server.close();
    throw error;
  }
  app = createInternalApp({
    config: loadServiceConfig({ API_AUTH_ISSUER: idp.issuer, API_AUTH_TOKEN_TYPES: 'jwt' }),
    store,
    clock,
    logger,
    console: {
      oidc: {
        issuer: idp.issuer,
        clientId: idp.client.clientId,
        clientSecret: idp.client.clientSecret ?? '',
        redirectUri,
        resource: `${origin}/internal`,
      },
    },
  });
  // Fixed ids and times: the queue screenshot comes out the same on every run (no churn in docs/).
  const organization = await store.organizations.upsert({
    id: 'org_AcmePayments00001',
    name: 'Acme Payments',
    plan: 'pro',
  });
  let minutes = 0;
  // Five minutes apart, so the queue's oldest-first order is well defined.
  const at = () => new Date(Date.UTC(2026, 10, 2, 9, 0) + (minutes += 5) * 60_000);
  const idFor = (prefix: string, name: string) =>
    `${prefix}_${name
      .replace(/[^A-Za-z0-9]/g, '')
      .padEnd(16, '0')
      .slice(0, 40)}`;

  async function registration(name: string, fields: Partial<Registration>): Promise<Registration> {
    const time = at();
    return store.registrations.upsert({
      id: idFor('reg', name),
      organizationId: organization.id,
      name,
      description: `${name}, registered by its team`,
      clientType: 'confidential',
      applicationType: 'web',
      policyProfileId: 'pp_standard',
      config: WEB_CONFIG,
      status: 'pending_review',
      revision: 3,
      createdAt: time,
      updatedAt: time,
      createdBy: 'carol',
      submittedAt: time,
      submittedBy: 'carol',
      ...fields,
    });
  }

  return {
    consoleUrl: `${origin}/console`,
    store,
    idp,
    organizationId: organization.id,
    pending: (name, submittedBy = 'carol') => registration(name, { createdBy: submittedBy, submittedBy }),
    async withChangeSet(name, changes, proposedBy = 'dave') {
      const changeSetId = idFor('cs', name);
      const active = await registration(name, {
        status: 'active',
        clientId: idFor('client', name),
        pendingChangeSetId: changeSetId,
      });
      const time = at();
      const created = await store.changeSets.create({
        id: changeSetId,
        registrationId: active.id,
        organizationId: organization.id,
        status: 'pending_review',
        baseRevision: active.revision,
        changes,
        revision: 1,
        createdAt: time,
        updatedAt: time,
        createdBy: proposedBy,
      });
      if (!created.ok) throw new Error('change set id collided');
      return active;
    },
    async close() {
      await idp.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
