/**
 * The public service and the internal surface over one store, as `main.ts` runs them: the public app from
 * `startService`, `createInternalApp` on its own 127.0.0.1 port-0 listener, tokens for requesters (public audience)
 * and for reviewers/admins (internal audience), and helpers that walk a registration through the public API.
 */
import { createServer, type Server } from 'node:http';
import { expect } from 'chai';
import supertest from 'supertest';
import { createInternalApp, type InternalDeps } from '../../../../server/internal/app.js';
import type { Organization } from '../../../../server/components/organizations/organizations.model.js';
import {
  createProvisioning,
  type Provisioning,
} from '../../../../server/components/provisioning/create-provisioning.js';
import {
  createRegistrationClient,
  type RegistrationClient,
} from '../../../../server/components/provisioning/registration-client.js';
import type { Store } from '../../../../server/deps.js';
import { startService, type ServiceHarness } from '../../../support/service-harness.js';

const INTERNAL_AUDIENCE = 'http://127.0.0.1:3001/internal';
const REQUESTER_SCOPES = 'registrations:read registrations:write change_sets:write';
const VALID_WEB_CONFIG = { redirectUris: ['https://app.example.com/callback'], grantTypes: ['authorization_code'] };

export interface InternalHarness {
  service: ServiceHarness;
  deps: InternalDeps;
  /** Bound to the internal listener. */
  internal: ReturnType<typeof supertest>;
  /** Bound to the public listener. */
  public: ReturnType<typeof supertest>;
  /** An internal-audience token for `sub` with `scope`. */
  staffToken(sub: string, scope: string, claims?: Record<string, unknown>): Promise<string>;
  /** A public-audience token for a requester. */
  requesterToken(sub?: string): Promise<string>;
  organization(options?: { plan?: 'free' | 'pro' | 'enterprise'; subject?: string }): Promise<Organization>;
  /** Creates and submits a registration (default: confidential web) through the public API as `subject`; returns its id. */
  submitted(organization: Organization, subject?: string, body?: Record<string, unknown>): Promise<string>;
  /** Moves the service's clock forward (retry times of the provisioning outbox). */
  advance(ms: number): void;
  /** Present when the harness was started with `provisioning`. */
  provisioning?: Provisioning;
  close(): Promise<void>;
}

export interface InternalHarnessOptions {
  env?: Record<string, string>;
  extraDeps?: Partial<InternalDeps>;
  /** Replaces the embedded store (the mongo runs). */
  store?: Store;
  /** Wires provisioning from the PROVISIONING_* settings in `env`; `client` wraps the real RFC 7591/7592 client. */
  provisioning?: { wrapClient?: (client: RegistrationClient) => RegistrationClient };
}

export async function startInternal(options: InternalHarnessOptions = {}): Promise<InternalHarness> {
  const service = await startService({
    env: { INTERNAL_AUTH_AUDIENCE: INTERNAL_AUDIENCE, RATE_LIMIT_PER_MINUTE_PRO: '1000000', ...options.env },
    store: options.store,
  });
  // A strictly increasing clock: "oldest first" must not depend on two writes landing in different milliseconds.
  let last = 0;
  let offset = 0;
  service.deps.clock = () => new Date((last = Math.max(Date.now() + offset, last + 1)));
  let provisioning: Provisioning | undefined;
  if (options.provisioning) {
    const config = service.deps.config;
    const real = createRegistrationClient({
      endpoint: config.provisioningRegistrationEndpoint as string,
      initialAccessToken: config.provisioningInitialAccessToken as string,
    });
    provisioning = createProvisioning(service.deps, { client: options.provisioning.wrapClient?.(real) ?? real });
  }
  const deps: InternalDeps = {
    ...service.deps,
    ...(provisioning && { provisioning: provisioning.hook, provisioningWorker: provisioning.worker }),
    ...options.extraDeps,
  };
  const server: Server = createServer(createInternalApp(deps));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const internal = supertest(server);
  const requesterToken = (sub = 'alice') => service.token({ sub, scope: REQUESTER_SCOPES });

  return {
    service,
    deps,
    internal,
    public: service.request,
    staffToken: (sub, scope, claims = {}) => service.token({ sub, scope, aud: INTERNAL_AUDIENCE, ...claims }),
    requesterToken,
    organization: ({ plan = 'pro', subject = 'alice' } = {}) => service.createOrganization(plan, { subject }),
    provisioning,
    advance(ms) {
      offset += ms;
    },
    async submitted(organization, subject = 'alice', body) {
      const token = await requesterToken(subject);
      const created = await service.request
        .post(`/api/v1/organizations/${organization.id}/registrations`)
        .set('Authorization', `Bearer ${token}`)
        .send(
          body ?? {
            name: 'Web app',
            clientType: 'confidential',
            applicationType: 'web',
            policyProfileId: 'pp_standard',
            config: VALID_WEB_CONFIG,
          },
        );
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      const submitted = await service.request
        .post(`/api/v1/organizations/${organization.id}/registrations/${created.body.id}/actions/submit`)
        .set('Authorization', `Bearer ${token}`)
        .send({});
      expect(submitted.status, JSON.stringify(submitted.body)).to.equal(200);
      return created.body.id as string;
    },
    async close() {
      await provisioning?.worker.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await service.close();
    },
  };
}
