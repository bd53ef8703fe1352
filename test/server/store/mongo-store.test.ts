/**
 * The mongo store beyond the shared contract (test/server/contract/ runs that): several store instances sharing
 * state, database outages answered as 503 `unavailable` and recovered from, and the mongoose safety settings.
 */
import { expect } from 'chai';
import { createServer } from 'node:net';
import { AppError } from '../../../lib/app-error.js';
import { migrate } from '../../../server/store/migrate.js';
import { createMongoStore, type MongoStore } from '../../../server/store/mongo-store.js';
import { aRegistration, at, T0 } from '../contract/fixtures.js';
import { createFerretDb, ferretdbAvailable, FERRETDB_BIN } from '../mongo/ferretdb-process.js';
import { describeWithMongo, dropDatabase, uniqueDbName } from '../mongo/mongo-test-db.js';
import { notRunHere } from '../../support/outside-npm.js';

const ORG_A = 'org_AAAAAAAAAAAAAAAAAAAAAA';

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

function expectUnavailable(error: unknown): void {
  expect(error).to.be.instanceOf(AppError);
  const appError = error as AppError;
  expect([appError.status, appError.code]).to.deep.equal([503, 'unavailable']);
  expect(appError.headers['Retry-After']).to.match(/^\d+$/);
  expect(appError.message).to.not.match(/mongo|ECONNREFUSED|server selection/i);
}

describe('createMongoStore with no database listening', () => {
  it('rejects with 503 unavailable and Retry-After instead of hanging', async () => {
    const port = await closedPort();
    expectUnavailable(
      await failure(createMongoStore(`mongodb://127.0.0.1:${port}/gh_none`, { serverSelectionTimeoutMS: 300 })),
    );
  });
});

describeWithMongo('the mongo store', (uri) => {
  const dbName = uniqueDbName();
  let one: MongoStore;
  let two: MongoStore;

  before(async () => {
    one = await createMongoStore(uri, { dbName });
    two = await createMongoStore(uri, { dbName });
    await migrate(one.connection);
  });
  after(async () => {
    await one.close();
    await two.close();
    await dropDatabase(uri, dbName);
  });

  describe('shared by two instances of the service', () => {
    it('counts rate limits across both instances', async () => {
      const key = `shared-${Math.random()}`;
      const results = [];
      for (const store of [one, two, one, two]) results.push(await store.rateLimits.consume(key, 3, 60_000));
      expect(results.map((r) => r.allowed)).to.deep.equal([true, true, true, false]);
    });

    it('sees an Idempotency-Key claimed on one instance as in flight, then replays it, on the other', async () => {
      const scope = { organizationId: ORG_A, subject: 'alice', key: `k-${Math.random()}` };
      const timing = { leaseMs: 60_000, ttlMs: 86_400_000 };
      const claimed = await one.idempotency.begin({ ...scope, ...timing, fingerprint: 'f', now: T0 });
      expect(claimed.outcome).to.equal('started');
      expect(await two.idempotency.begin({ ...scope, ...timing, fingerprint: 'f', now: at(1) })).to.deep.equal({
        outcome: 'in_flight',
      });
      const response = { status: 201, headers: { etag: '"1"' }, body: { id: 'reg_x' } };
      await one.idempotency.complete({ ...scope, response, claim: claimed.outcome === 'started' && claimed.claim });
      expect(await two.idempotency.begin({ ...scope, ...timing, fingerprint: 'f', now: at(2) })).to.deep.equal({
        outcome: 'completed',
        response,
      });
    });

    it('lets another instance retake the key of a crashed one once its lease is over', async () => {
      const crashed = await createMongoStore(uri, { dbName });
      const scope = { organizationId: ORG_A, subject: 'alice', key: `k-${Math.random()}` };
      const timing = { leaseMs: 30_000, ttlMs: 86_400_000 };
      expect((await crashed.idempotency.begin({ ...scope, ...timing, fingerprint: 'f', now: T0 })).outcome).to.equal(
        'started',
      );
      await crashed.close(); // never completes nor releases
      expect((await two.idempotency.begin({ ...scope, ...timing, fingerprint: 'f', now: at(10) })).outcome).to.equal(
        'in_flight',
      );
      expect((await two.idempotency.begin({ ...scope, ...timing, fingerprint: 'f', now: at(31) })).outcome).to.equal(
        'started',
      );
    });

    it('lets exactly one of two instances win a conditional update on the same revision, every time', async () => {
      for (let round = 0; round < 10; round += 1) {
        const record = aRegistration();
        await one.registrations.create(record);
        const results = await Promise.all(
          [one, two].map((store, i) =>
            store.registrations.update(
              { organizationId: ORG_A, id: record.id, revisionIn: [1] },
              { name: `n${i}` },
              at(1),
            ),
          ),
        );
        expect(results.map((r) => (r.ok ? 'won' : r.reason)).sort()).to.deep.equal(['stale_revision', 'won']);
        expect((await two.registrations.get(ORG_A, record.id))?.revision).to.equal(2);
      }
    });

    it('never exceeds the organization quota under concurrent creates from both instances', async () => {
      const organizationId = `org_Q${Math.random().toString(36).slice(2).padEnd(21, 'Q')}`;
      const outcomes = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          (i % 2 ? one : two).registrations.create(aRegistration({ organizationId }), { maxInOrganization: 3 }),
        ),
      );
      expect(outcomes.filter((o) => o.ok)).to.have.length(3);
      expect(await one.registrations.count(organizationId)).to.equal(3);
    });
  });

  describe('mongoose safety settings', () => {
    it('treats operator objects in filter values as plain values (sanitizeFilter)', async () => {
      const record = aRegistration();
      await one.registrations.create(record);
      const operator = { $ne: 'nothing' } as unknown as string;
      expect(await one.registrations.get(operator, record.id).catch(() => null)).to.equal(null);
      expect(await one.registrations.get(ORG_A, operator).catch(() => null)).to.equal(null);
      const outcome = await one.registrations
        .update({ organizationId: operator, id: record.id }, { name: 'stolen' }, at(1))
        .catch(() => null);
      expect(outcome?.ok ?? false).to.equal(false);
      expect((await one.registrations.get(ORG_A, record.id))?.name).to.equal(record.name);
    });

    it('refuses unknown fields in writes (strict: throw) and stores nothing of them', async () => {
      const record = aRegistration();
      await one.registrations.create(record);
      const changes = { name: 'x', isAdmin: true } as unknown as { name: string };
      const error = await failure(one.registrations.update({ organizationId: ORG_A, id: record.id }, changes, at(1)));
      expect((error as Error).name).to.equal('StrictModeError');
      expect(await one.registrations.get(ORG_A, record.id)).to.deep.equal(record);
      expect(await failure(one.registrations.create({ ...aRegistration(), role: 'admin' } as never))).to.be.instanceOf(
        Error,
      );
    });

    it('never moves a record to another organization (immutable organizationId)', async () => {
      const record = aRegistration();
      await one.registrations.create(record);
      const changes = { organizationId: 'org_BBBBBBBBBBBBBBBBBBBBBB' } as unknown as { name: string };
      await one.registrations.update({ organizationId: ORG_A, id: record.id }, changes, at(1)).catch(() => undefined);
      expect((await one.registrations.get(ORG_A, record.id))?.organizationId).to.equal(ORG_A);
    });
  });
});

describeWithMongo('the mongo store with DB_QUERY_TIMEOUT_MS', (uri) => {
  const dbName = uniqueDbName();
  after(() => dropDatabase(uri, dbName));

  it('gives every query and write its repositories send that time limit (maxTimeMS)', async () => {
    const store = await createMongoStore(uri, { dbName, queryTimeoutMs: 1234 });
    const limits: unknown[] = [];
    try {
      await store.reset();
      store.connection.set('debug', (_collection: string, method: string, ...args: unknown[]) => {
        if (method.startsWith('insert')) return;
        const options = args.find(
          (arg): arg is { maxTimeMS?: unknown } => typeof arg === 'object' && arg !== null && 'maxTimeMS' in arg,
        );
        limits.push(options?.maxTimeMS ?? `${method} without a limit`);
      });
      const record = aRegistration({ createdAt: at(1) });
      await store.registrations.create(record, { maxInOrganization: 5 });
      await store.registrations.get(ORG_A, record.id);
      await store.registrations.update({ organizationId: ORG_A, id: record.id }, { name: 'Limited' }, at(2));
      await store.registrations.list({ organizationId: ORG_A, limit: 10 });
      await store.provisioning.claimDue(at(3), at(60));
      await store.grants.find('alice', ORG_A);
    } finally {
      store.connection.set('debug', false);
      await store.close();
    }
    expect(limits.length).to.be.greaterThan(5);
    expect([...new Set(limits)]).to.deep.equal([1234]);
  });
});

describe('the mongo store through a database outage', function () {
  if (!ferretdbAvailable()) {
    // The test stops and restarts a database of its own; it needs the FerretDB build of .ci/ferretdb.sh.
    notRunHere(`no FerretDB binary at ${FERRETDB_BIN} (to enable: source .ci/ferretdb.sh && ferretdb_build)`);
    return;
  }
  this.timeout(60_000);

  it('answers 503 unavailable while the database is down, then serves again by itself with every write kept', async () => {
    const db = await createFerretDb(uniqueDbName());
    const store = await createMongoStore(db.uri, { serverSelectionTimeoutMS: 500 });
    try {
      await migrate(store.connection);
      const before = aRegistration();
      expect((await store.registrations.create(before)).ok).to.equal(true);

      await db.stop();
      expectUnavailable(await failure(store.registrations.get(ORG_A, before.id)));
      expectUnavailable(await failure(store.registrations.create(aRegistration())));
      expectUnavailable(await failure(store.ping()));
      // The insurance limiter keeps counting in memory while the shared counters are out of reach.
      expect((await store.rateLimits.consume('outage', 5, 60_000)).allowed).to.equal(true);

      await db.start();
      let recovered = false;
      for (let i = 0; i < 100 && !recovered; i += 1) {
        recovered = await store.ping().then(
          () => true,
          () => false,
        );
        if (!recovered) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(recovered, 'the store answered its ping again after the database came back').to.equal(true);
      expect(await store.registrations.get(ORG_A, before.id)).to.deep.equal(before);
      expect((await store.registrations.create(aRegistration())).ok).to.equal(true);
    } finally {
      await store.close();
      await db.dispose();
    }
  });
});
