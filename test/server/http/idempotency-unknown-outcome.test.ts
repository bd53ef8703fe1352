/**
 * Idempotency-Key across unknown outcomes: the create is written, then the request fails as if
 * the database timed out after the write was sent (503). On another instance the key's claim stays until its lease
 * ends (a retry meanwhile is 409); the instance that answered the 503 knows the attempt is over and takes the claim
 * over at once. The retry finds the record the first attempt made — the record carries its key —
 * and replays the 201 with the same body and Location. Nothing is created twice: on the embedded store, on
 * MongoDB (FerretDB in CI), and with the retry sent to a second instance sharing the database.
 */
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import supertest from 'supertest';
import { createApp } from '../../../server/app.js';
import type { Organization } from '../../../server/components/organizations/organizations.model.js';
import { databaseUnavailable } from '../../../server/db/database-errors.js';
import { migrate } from '../../../server/store/migrate.js';
import type { ApiDeps, Store } from '../../../server/deps.js';
import { IDEMPOTENCY_LEASE_MS } from '../../../server/http/idempotency.js';
import { createMemoryStore } from '../../../server/store/memory-store.js';
import { createMongoStore, type MongoStore } from '../../../server/store/mongo-store.js';
import { startService, type ServiceHarness } from '../../support/service-harness.js';
import { NO_RATE_LIMITS, seedRegistration } from '../api/api-fixtures.js';
import { describeWithMongo, dropDatabase, uniqueDbName } from '../mongo/mongo-test-db.js';

const BODY = { name: 'Written before the timeout', templateId: 'tpl_web' };

interface FaultControl {
  /** The create's insert lands, then the call fails. */
  failing: boolean;
  /** The idempotency claim's write lands, then the call fails. */
  claimFailing: boolean;
}

/** The store's writes really happen, then fail like a timed-out database call, while the control says so. */
function failAfterWrite(store: Store): FaultControl {
  const control = { failing: false, claimFailing: false };
  const begin = store.idempotency.begin.bind(store.idempotency);
  store.idempotency.begin = async (input) => {
    const outcome = await begin(input);
    if (control.claimFailing) throw databaseUnavailable(new Error('socket timeout after the claim was sent'));
    return outcome;
  };
  const create = store.registrations.create.bind(store.registrations);
  store.registrations.create = async (record, options) => {
    const outcome = await create(record, options);
    if (control.failing) throw databaseUnavailable(new Error('socket timeout after the insert was sent'));
    return outcome;
  };
  const propose = store.changeSets.create.bind(store.changeSets);
  store.changeSets.create = async (record) => {
    const outcome = await propose(record);
    if (control.failing) throw databaseUnavailable(new Error('socket timeout after the insert was sent'));
    return outcome;
  };
  return control;
}

interface Instance {
  request: ReturnType<typeof supertest>;
  /** Moves this instance's clock (the idempotency lease is measured with it). */
  advance(ms: number): void;
}

function retryAfterUnknownOutcome(
  setup: () => { h: ServiceHarness; control: FaultControl; first: Instance; second: Instance },
): void {
  let h: ServiceHarness;
  let control: FaultControl;
  let first: Instance;
  let second: Instance;
  let org: Organization;
  let auth: string;
  before(async () => {
    ({ h, control, first, second } = setup());
    org = await h.createOrganization('enterprise');
    auth = `Bearer ${await h.token()}`;
  });

  const path = () => `/api/v1/organizations/${org.id}/registrations`;
  const create = (instance: Instance, key: string) =>
    instance.request.post(path()).set('Authorization', auth).set('Idempotency-Key', key).send(BODY);
  const count = () => h.deps.store.registrations.count(org.id);

  it('keeps the claim through the lease, then replays the 201 of the record it made and creates nothing new', async () => {
    const before = await count();
    control.failing = true;
    const failed = await create(first, '"unknown-outcome-0001"');
    control.failing = false;
    expect(failed.status).to.equal(503);
    expect(await count()).to.equal(before + 1);

    const tooSoon = await create(second, '"unknown-outcome-0001"');
    expect(tooSoon.status).to.equal(409);
    expect(tooSoon.body.error.code).to.equal('conflict');

    first.advance(IDEMPOTENCY_LEASE_MS + 1000);
    second.advance(IDEMPOTENCY_LEASE_MS + 1000);
    const retried = await create(second, '"unknown-outcome-0001"');
    expect(retried.status).to.equal(201);
    expect(await count()).to.equal(before + 1);
    const [made] = (await h.deps.store.registrations.list({ organizationId: org.id, limit: 100 })).filter(
      (r) => r.name === BODY.name,
    );
    expect(retried.headers.location).to.equal(
      `${h.deps.config.publicBaseUrl}/api/v1/organizations/${org.id}/registrations/${made.id}`,
    );
    const read = await first.request.get(`${path()}/${made.id}`).set('Authorization', auth);
    expect(retried.body).to.deep.equal(read.body);
    expect(retried.headers.etag).to.equal(read.headers.etag);

    // From now on the stored response is replayed, on either instance.
    const again = await create(first, '"unknown-outcome-0001"');
    expect(again.status).to.equal(201);
    expect(again.headers['idempotent-replayed']).to.equal('true');
    expect(again.body).to.deep.equal(retried.body);
    expect(again.headers.location).to.equal(retried.headers.location);
    expect(await count()).to.equal(before + 1);

    // The create's audit entry was written with the record and delivered once, by the retry.
    const entries = await h.deps.store.audit.list({ organizationId: org.id, targetId: made.id, limit: 10 });
    expect(entries.map((e) => e.action)).to.deep.equal(['create']);
  });

  it('serves a retry at once on the instance that answered the 503 (nothing runs under the claim there): the record it made, nothing new', async () => {
    const before = await count();
    control.failing = true;
    expect((await create(first, '"unknown-outcome-0004"')).status).to.equal(503);
    control.failing = false;
    // Another instance cannot know the first attempt is over: it waits for the lease.
    expect((await create(second, '"unknown-outcome-0004"')).status).to.equal(409);
    const retried = await create(first, '"unknown-outcome-0004"');
    expect(retried.status).to.equal(201);
    expect(retried.body.name).to.equal(BODY.name);
    expect(await count()).to.equal(before + 1);
    const again = await create(second, '"unknown-outcome-0004"');
    expect(again.headers['idempotent-replayed']).to.equal('true');
    expect(again.body.id).to.equal(retried.body.id);
  });

  it('serves a retry at once on the instance whose claim write failed after it landed (nothing runs under it)', async () => {
    const before = await count();
    control.claimFailing = true;
    expect((await create(first, '"unknown-outcome-0005"')).status).to.equal(503);
    control.claimFailing = false;
    expect(await count()).to.equal(before);
    expect((await create(second, '"unknown-outcome-0005"')).status).to.equal(409);
    const retried = await create(first, '"unknown-outcome-0005"');
    expect(retried.status).to.equal(201);
    expect(await count()).to.equal(before + 1);
  });

  it('still refuses the key with another body (422) after an unknown outcome', async () => {
    control.failing = true;
    expect((await create(first, '"unknown-outcome-0002"')).status).to.equal(503);
    control.failing = false;
    first.advance(IDEMPOTENCY_LEASE_MS + 1000);
    second.advance(IDEMPOTENCY_LEASE_MS + 1000);
    const other = await second.request
      .post(path())
      .set('Authorization', auth)
      .set('Idempotency-Key', '"unknown-outcome-0002"')
      .send({ ...BODY, name: 'Other' });
    expect(other.status).to.equal(422);
    expect(other.body.error.code).to.equal('idempotency_key_reused');
    expect(
      (await h.deps.store.registrations.list({ organizationId: org.id, limit: 100 })).filter((r) => r.name === 'Other'),
    ).to.deep.equal([]);
  });
  it('replays a change-set proposal the same way: one change set, its 201 and Location', async () => {
    const registration = await seedRegistration(h, org, { status: 'active' });
    const proposals = `${path()}/${registration.id}/change-sets`;
    const propose = (instance: Instance) =>
      instance.request
        .post(proposals)
        .set('Authorization', auth)
        .set('Idempotency-Key', '"unknown-outcome-0003"')
        .send({ changes: { scopes: ['openid'] } });
    control.failing = true;
    expect((await propose(first)).status).to.equal(503);
    control.failing = false;
    expect((await propose(second)).status).to.equal(409);
    first.advance(IDEMPOTENCY_LEASE_MS + 1000);
    second.advance(IDEMPOTENCY_LEASE_MS + 1000);
    const retried = await propose(second);
    expect(retried.status).to.equal(201);
    const listed = await first.request.get(proposals).set('Authorization', auth);
    expect(listed.body.data.map((c: { id: string }) => c.id)).to.deep.equal([retried.body.id]);
    expect(retried.headers.location).to.equal(`${h.deps.config.publicBaseUrl}${proposals}/${retried.body.id}`);
    const read = await first.request.get(`${proposals}/${retried.body.id}`).set('Authorization', auth);
    expect(retried.body).to.deep.equal(read.body);
  });
}

/** Deps whose clock can be moved forward. */
function movableDeps(deps: ApiDeps, store: Store): ApiDeps & { advance(ms: number): void } {
  let offset = 0;
  return { ...deps, store, clock: () => new Date(Date.now() + offset), advance: (ms: number) => void (offset += ms) };
}

async function listen(deps: ApiDeps): Promise<{ server: Server; request: ReturnType<typeof supertest> }> {
  const server = createServer(createApp(deps));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, request: supertest(server) };
}

async function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

describe('Idempotency-Key after an unknown outcome: two instances on one embedded store', () => {
  let h: ServiceHarness;
  let control: FaultControl;
  let instances: Instance[];
  let servers: Server[];
  before(async () => {
    const store = createMemoryStore();
    control = failAfterWrite(store);
    h = await startService({ env: NO_RATE_LIMITS, store });
    servers = [];
    instances = [];
    for (let i = 0; i < 2; i += 1) {
      const deps = movableDeps(h.deps, store);
      const listening = await listen(deps);
      servers.push(listening.server);
      instances.push({ request: listening.request, advance: (ms: number) => deps.advance(ms) });
    }
  });
  after(async () => {
    for (const server of servers) await stop(server);
    await h.close();
  });
  retryAfterUnknownOutcome(() => ({ h, control, first: instances[0], second: instances[1] }));
});

describeWithMongo('Idempotency-Key after an unknown outcome: two instances on one MongoDB', (uri) => {
  const dbName = uniqueDbName();
  let h: ServiceHarness;
  let control: FaultControl;
  let stores: MongoStore[];
  let servers: Server[];
  let instances: Instance[];
  before(async () => {
    stores = [await createMongoStore(uri, { dbName }), await createMongoStore(uri, { dbName })];
    await migrate(stores[0].connection);
    control = failAfterWrite(stores[0]);
    h = await startService({ env: NO_RATE_LIMITS, store: stores[0] });
    servers = [];
    instances = [];
    for (const store of stores) {
      const deps = movableDeps(h.deps, store);
      const listening = await listen(deps);
      servers.push(listening.server);
      instances.push({ request: listening.request, advance: (ms: number) => deps.advance(ms) });
    }
  });
  after(async () => {
    for (const server of servers) await stop(server);
    await stores[1].close();
    await h.close();
    await dropDatabase(uri, dbName);
  });
  retryAfterUnknownOutcome(() => ({ h, control, first: instances[0], second: instances[1] }));
});
