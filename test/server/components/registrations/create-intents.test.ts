/**
 * Creates on MongoDB deliver their audit entry without updating the record they inserted (a create intent says the
 * entry may be undelivered): no update or delete reaches the registrations collection, no intent outlives a
 * healthy create, a cut-off create's entry is delivered from its intent by the drain, and an intent whose record
 * never landed is kept for the horizon, then dropped with no entry.
 */
import { expect } from 'chai';
import { drainOutbox } from '../../../../server/components/audit/outbox-delivery.js';
import { createIntentModel } from '../../../../server/components/registrations/create-intents.schema.js';
import { createRegistration } from '../../../../server/components/registrations/registrations.service.js';
import type { RequestContext } from '../../../../server/components/registrations/request-context.js';
import { migrate } from '../../../../server/db/migrate.js';
import type { Store } from '../../../../server/deps.js';
import { createMongoStore, type MongoStore } from '../../../../server/store/mongo-store.js';
import { describeWithMongo, dropDatabase, uniqueDbName } from '../../mongo/mongo-test-db.js';
import { ALL_SCOPES } from './domain-fixtures.js';

const INPUT = { name: 'Intent', templateId: 'tpl_web', config: { redirectUris: ['https://app.example.com/cb'] } };

describeWithMongo('create intents on MongoDB', (uri) => {
  const dbName = uniqueDbName();
  let store: MongoStore;
  let context: RequestContext;
  let now: number;
  const clock = () => new Date(now);
  const intents = () => createIntentModel(store.connection).find().lean();
  const entriesOf = (targetId: string) =>
    store.audit.list({ organizationId: context.organization.id, targetId, limit: 10 });

  before(async () => {
    store = await createMongoStore(uri, { dbName });
    await store.reset();
    await migrate(store.connection);
    const organization = await store.organizations.create({ name: 'Intents', plan: 'enterprise' });
    context = { organization, principal: { sub: 'alice', scopes: ALL_SCOPES } };
  });
  beforeEach(() => {
    now = Date.parse('2026-06-01T00:00:00Z');
  });
  after(async () => {
    await store.close();
    await dropDatabase(uri, dbName);
  });

  it('writes the record and its entry with inserts only, and leaves no intent behind', async () => {
    const writes: string[] = [];
    store.connection.set('debug', (collection: string, method: string) => {
      if (/update|delete|replace|findOneAnd/i.test(method)) writes.push(`${collection}.${method}`);
    });
    let created;
    try {
      created = await createRegistration({ store, clock }, context, INPUT);
    } finally {
      store.connection.set('debug', false);
    }
    expect(writes.filter((write) => write.startsWith('registrations.'))).to.deep.equal([]);
    expect((await entriesOf(created.id)).map((entry) => entry.action)).to.deep.equal(['create']);
    expect(await intents()).to.deep.equal([]);
    expect((await store.registrations.get(context.organization.id, created.id))?.outbox).to.equal(undefined);
  });

  it('delivers the entry of a create cut off after its insert from the intent, at the next drain', async () => {
    const cutOff: Store = {
      ...store,
      audit: {
        append: () => Promise.reject(new Error('killed between the record insert and the audit insert')),
        list: store.audit.list.bind(store.audit),
      },
    };
    const created = await createRegistration({ store: cutOff, clock }, context, INPUT);
    expect(await entriesOf(created.id)).to.deep.equal([]);
    expect((await intents()).map((intent) => intent.recordId)).to.deep.equal([created.id]);

    now += 1000;
    expect(await drainOutbox({ store, clock })).to.equal(1);
    expect((await entriesOf(created.id)).map((entry) => entry.action)).to.deep.equal(['create']);
    expect(await intents()).to.deep.equal([]);
    expect(await drainOutbox({ store, clock })).to.equal(0);
  });

  it('keeps an intent whose record never landed for ten minutes, then drops it without an entry', async () => {
    const Intents = createIntentModel(store.connection);
    await Intents.create({
      _id: 'aud_neverlanded000000000000',
      recordId: 'reg_neverlanded00000000000',
      organizationId: context.organization.id,
      eventIds: ['aud_neverlanded000000000000'],
      at: new Date(now),
    });
    now += 9 * 60_000;
    expect(await drainOutbox({ store, clock })).to.equal(0);
    expect(await intents()).to.have.length(1);
    now += 2 * 60_000;
    expect(await drainOutbox({ store, clock })).to.equal(0);
    expect(await intents()).to.deep.equal([]);
    expect(await entriesOf('reg_neverlanded00000000000')).to.deep.equal([]);
  });
});
