/**
 * A request with an Idempotency-Key costs MongoDB inserts only on its way through (FerretDB 1.24 scans a whole
 * collection for every update and for every read by anything but `_id`: keyed creates fell to 20–30 a second and
 * then answered 503 once a few thousand registrations were stored): the claim and its response are inserts, and a
 * create finds its retry by the unique key when it inserts, not by a read before.
 */
import { expect } from 'chai';
import { createRegistration } from '../../../../server/components/registrations/registrations.service.js';
import type { RequestContext } from '../../../../server/components/registrations/request-context.js';
import { migrate } from '../../../../server/store/migrate.js';
import { createMongoStore, type MongoStore } from '../../../../server/store/mongo-store.js';
import { describeWithMongo, dropDatabase, freshMongoStore, uniqueDbName } from '../../mongo/mongo-test-db.js';
import { ALL_SCOPES } from '../registrations/domain-fixtures.js';

const INPUT = { name: 'Keyed', templateId: 'tpl_web', config: { redirectUris: ['https://app.example.com/cb'] } };

describeWithMongo('Idempotency-Key requests on MongoDB', (uri) => {
  const dbName = uniqueDbName();
  let store: MongoStore;
  let context: RequestContext;
  const clock = () => new Date();

  /** The commands `work` sends, as `collection.method {filter keys}`. */
  async function commandsOf(work: () => Promise<unknown>): Promise<string[]> {
    const seen: string[] = [];
    store.connection.set('debug', (collection: string, method: string, query: unknown) => {
      const keys = query && typeof query === 'object' && !Array.isArray(query) ? Object.keys(query).sort() : [];
      seen.push(`${collection}.${method} {${keys.join(',')}}`);
    });
    try {
      await work();
    } finally {
      store.connection.set('debug', false);
    }
    return seen;
  }

  before(async () => {
    store = await freshMongoStore(uri, dbName);
    await migrate(store.connection);
    const organization = await store.organizations.create({ name: 'Keyed', plan: 'enterprise' });
    context = { organization, principal: { sub: 'alice', scopes: ALL_SCOPES }, role: 'owner' };
  });
  after(async () => {
    await store.close();
    await dropDatabase(uri, dbName);
  });

  it('claims and completes a key with inserts only, and another instance replays the response', async () => {
    const scope = { organizationId: context.organization.id, subject: 'alice', key: 'inserts-only-1' };
    const timing = { leaseMs: 60_000, ttlMs: 86_400_000, fingerprint: 'f' };
    const response = { status: 201, headers: {}, body: { id: 'reg_x' } };
    const commands = await commandsOf(async () => {
      const claimed = await store.idempotency.begin({ ...scope, ...timing, now: new Date() });
      expect(claimed.outcome).to.equal('started');
      await store.idempotency.complete({ ...scope, response, claim: claimed.outcome === 'started' && claimed.claim });
    });
    expect(commands.filter((command) => !command.includes('.insert'))).to.deep.equal([]);
    const other = await createMongoStore(uri, { dbName });
    try {
      expect(await other.idempotency.begin({ ...scope, ...timing, now: new Date() })).to.deep.equal({
        outcome: 'completed',
        response,
      });
    } finally {
      await other.close();
    }
  });

  it('answers with the response of a claim that completes while a retry takes it over, and keeps it', async () => {
    const scope = { organizationId: context.organization.id, subject: 'alice', key: 'completes-in-takeover' };
    const timing = { leaseMs: 60_000, ttlMs: 86_400_000, fingerprint: 'f' };
    const response = { status: 201, headers: {}, body: { id: 'reg_slow' } };
    const t0 = Date.parse('2026-06-01T00:00:00Z');
    const first = await store.idempotency.begin({ ...scope, ...timing, now: new Date(t0) });
    // The first holder outlives its lease and completes just as the retry's takeover is sent.
    const Records = store.connection.models.IdempotencyRecord as unknown as { updateOne: (...a: unknown[]) => unknown };
    const updateOne = Records.updateOne;
    Records.updateOne = async (...args: unknown[]) => {
      Records.updateOne = updateOne;
      await store.idempotency.complete({ ...scope, response, claim: first.outcome === 'started' && first.claim });
      return updateOne.apply(Records, args);
    };
    try {
      expect(await store.idempotency.begin({ ...scope, ...timing, now: new Date(t0 + 61_000) })).to.deep.equal({
        outcome: 'completed',
        response,
      });
    } finally {
      Records.updateOne = updateOne;
    }
    expect(await store.idempotency.begin({ ...scope, ...timing, now: new Date(t0 + 62_000) })).to.deep.equal({
      outcome: 'completed',
      response,
    });
  });

  it('creates with a key reading no registration by another field than _id, and a retry gets the same record', async () => {
    let first: { id: string } | undefined;
    const commands = await commandsOf(async () => {
      first = await createRegistration({ store, clock }, context, INPUT, { idempotencyKey: 'create-key-1' });
    });
    const reads = commands.filter((command) => /^registrations\.(find|count)/.test(command));
    expect(reads.filter((read) => !read.endsWith('{_id}'))).to.deep.equal([]);
    const retry = await createRegistration({ store, clock }, context, INPUT, { idempotencyKey: 'create-key-1' });
    expect(retry.id).to.equal(first?.id);
  });
});
