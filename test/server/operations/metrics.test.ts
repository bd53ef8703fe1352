/**
 * Metrics (issue 26): `GET /metrics` on the internal listener, scraped and parsed as Prometheus text: requests by
 * route template, method and status with their durations; token refusals by rule; store operation durations;
 * the outbox backlog and its oldest age; provisioning failures; rate-limit refusals; the process's own metrics.
 * METRICS_ENABLED=false serves none. Never a label carrying an id.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { createRegistration } from '../../../server/components/registrations/registrations.service.js';
import { createProvisioning } from '../../../server/components/provisioning/create-provisioning.js';
import {
  ProvisioningCallError,
  type RegistrationClient,
} from '../../../server/components/provisioning/registration-client.js';
import type { Store } from '../../../server/deps.js';
import { main } from '../../../server/main.js';
import { startTestAuth, type TestAuth } from '../../support/test-auth.js';
import { ALL_SCOPES } from '../components/registrations/domain-fixtures.js';
import { startSurfaces, type Surfaces } from './surfaces.js';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus text exposition → samples (comments and HELP/TYPE lines left out). */
function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[key] = value;
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

const find = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));

describe('GET /metrics on the internal listener', function () {
  this.timeout(20_000);
  let auth: TestAuth;
  let s: Surfaces;
  let samples: Sample[];

  before(async () => {
    auth = await startTestAuth();
    s = await startSurfaces(
      {
        ...auth.env(),
        API_AUTH_AUDIENCE: auth.audience,
        RATE_LIMIT_PER_MINUTE_FREE: '1',
        PROVISIONING_REGISTRATION_ENDPOINT: 'http://127.0.0.1:9/register',
        PROVISIONING_INITIAL_ACCESS_TOKEN: 'iat',
        PROVISIONING_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      },
      { metrics: true },
    );
    const store = s.deps.store;
    const token = await auth.token();
    const organization = await store.organizations.create({ name: 'Metered', plan: 'free' });
    await store.grants.grant({ organizationId: organization.id, subject: 'alice', isDefault: false });
    const base = `/api/v1/organizations/${organization.id}`;
    const created = await s.public
      .post(`${base}/registrations`)
      .set('Authorization', `Bearer ${token}`)
      .send({ name: 'Metered app', templateId: 'tpl_spa', config: { redirectUris: ['https://app.example.com/cb'] } });
    expect(created.status).to.equal(201);
    // The free plan's limit here is 1 a minute: the next request is refused.
    expect(
      (await s.public.get(`${base}/registrations/${created.body.id}`).set('Authorization', `Bearer ${token}`)).status,
    ).to.equal(429);
    await s.public
      .get('/api/v1/organizations')
      .set('Authorization', `Bearer ${await auth.token({ aud: 'https://elsewhere' })}`);
    await s.public.get('/api/v1/no-such-thing').set('Authorization', `Bearer ${token}`);

    // An audit entry a crash left undelivered: the outbox backlog.
    const killed: Store = {
      ...store,
      audit: { append: () => Promise.reject(new Error('killed')), list: store.audit.list.bind(store.audit) },
    };
    await createRegistration(
      { store: killed, clock: () => new Date(Date.now() - 30_000) },
      {
        organization: { ...organization, plan: 'enterprise' },
        principal: { sub: 'alice', scopes: ALL_SCOPES },
        role: 'owner',
      },
      { name: 'Undelivered', templateId: 'tpl_spa', config: { redirectUris: ['https://app.example.com/cb'] } },
    );

    // A provisioning step the authorization server refuses for good.
    const refusing: RegistrationClient = {
      register: () => Promise.reject(new ProvisioningCallError('refused', true, 400)),
      update: () => Promise.reject(new Error('unused')),
      remove: () => Promise.reject(new Error('unused')),
    };
    const provisioning = createProvisioning(s.deps, { client: refusing })!;
    await store.provisioning.enqueue({
      organizationId: organization.id,
      registrationId: created.body.id as string,
      kind: 'register',
      revision: 1,
      now: new Date(),
    });
    await provisioning.worker.runDue();
    await provisioning.worker.stop();

    const scraped = await s.internal.get('/metrics');
    expect(scraped.status).to.equal(200);
    expect(scraped.headers['content-type']).to.match(/^text\/plain; version=0\.0\.4/);
    samples = parse(scraped.text);
  });
  after(async () => {
    await s.close();
    await auth.close();
  });

  it('counts requests by route template, method and status, with their durations', () => {
    const route = '/api/v1/organizations/:organizationId/registrations';
    expect(find(samples, 'http_requests_total', { route, method: 'POST', status: '201' })[0]?.value).to.equal(1);
    expect(
      find(samples, 'http_requests_total', { route: `${route}/:id`, method: 'GET', status: '429' }),
    ).to.have.length(1);
    expect(find(samples, 'http_requests_total', { route: 'unmatched', status: '404' })).to.have.length(1);
    expect(
      find(samples, 'http_request_duration_seconds_count', { route, method: 'POST', status: '201' })[0]?.value,
    ).to.equal(1);
    // No label value carries an id.
    for (const sample of samples)
      for (const value of Object.values(sample.labels)) expect(value).to.not.match(/(org|reg)_[A-Za-z0-9]{16}/);
  });

  it('counts token refusals by rule and rate-limit refusals by plan', () => {
    expect(find(samples, 'auth_token_refusals_total', { rule: 'audience' })[0]?.value).to.equal(1);
    expect(find(samples, 'rate_limit_refusals_total', { plan: 'free' })[0]?.value).to.equal(1);
  });

  it('times store operations by repository and operation', () => {
    expect(
      find(samples, 'store_operation_duration_seconds_count', { repository: 'registrations', operation: 'create' })[0]
        ?.value,
    ).to.be.greaterThan(0);
    expect(
      find(samples, 'store_operation_duration_seconds_count', { repository: 'rateLimits', operation: 'consume' })[0]
        ?.value,
    ).to.be.greaterThan(0);
  });

  it('shows the outbox backlog and the age of its oldest entry', () => {
    expect(find(samples, 'outbox_backlog')[0]?.value).to.equal(1);
    expect(find(samples, 'outbox_oldest_age_seconds')[0]?.value).to.be.greaterThan(20);
  });

  it('counts provisioning failures by step kind, and the process metrics', () => {
    expect(find(samples, 'provisioning_failures_total', { kind: 'register', final: 'true' })[0]?.value).to.equal(1);
    expect(find(samples, 'process_cpu_seconds_total')).to.have.length(1);
    expect(find(samples, 'nodejs_eventloop_lag_seconds')).to.have.length(1);
  });
});

describe('METRICS_ENABLED', () => {
  it('serves /metrics on the internal listener by default and not at all when false, never on the public one', async () => {
    const auth = await startTestAuth();
    try {
      for (const [setting, expected] of [
        [undefined, 200],
        ['false', 404],
      ] as const) {
        const stop = new AbortController();
        let urls: [string, string] | undefined;
        const running = main(
          [],
          auth.env({ PORT: '0', INTERNAL_PORT: '0', ...(setting && { METRICS_ENABLED: setting }) }),
          { stdout: { write: () => true }, stderr: { write: () => true } },
          { signal: stop.signal, onListening: (url, internal) => (urls = [url, internal]) },
        );
        for (let i = 0; i < 100 && !urls; i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
        expect((await fetch(`${urls![1]}/metrics`)).status).to.equal(expected);
        expect((await fetch(`${urls![0]}/metrics`)).status).to.equal(404);
        stop.abort();
        expect(await running).to.equal(0);
      }
    } finally {
      await auth.close();
    }
  });
});
