/**
 * Outbox due items on MongoDB: a write that stores outbox events announces them with a due item, and the drain
 * finds pending work there, never by filtering the records' collections. A create delivers its audit entry without
 * updating the record it inserted: no update or delete reaches the registrations collection, no item outlives a
 * healthy write, a cut-off write's entry is delivered from its item by the drain, and an item whose record never
 * landed is kept for the horizon, then dropped with no entry.
 */
import { expect } from 'chai';
import { drainOutbox } from '../../../../server/components/outbox/outbox-drain.js';
import { dueItemModel } from '../../../../server/components/outbox/due-items.schema.js';
import { createRegistration } from '../../../../server/components/registrations/registrations.service.js';
import type { RequestContext } from '../../../../server/components/registrations/request-context.js';
import { migrate } from '../../../../server/store/migrate.js';
import type { Store } from '../../../../server/deps.js';
import { type MongoStore } from '../../../../server/store/mongo-store.js';
import { describeWithMongo, dropDatabase, freshMongoStore, uniqueDbName } from '../../mongo/mongo-test-db.js';
import { ALL_SCOPES } from '../registrations/domain-fixtures.js';

const INPUT = { name: 'Due', templateId: 'tpl_web', config: { redirectUris: ['https://app.example.com/cb'] } };

describeWithMongo('outbox due items on MongoDB', (uri) => {
  const dbName = uniqueDbName();
  let store: MongoStore;
  let context: RequestContext;
  let now: number;
  const clock = () => new Date(now);
  const items = () => dueItemModel(store.connection).find().lean();
  /** The items left once a write's retirement (made after the answer, gathered with others) has had its turn. */
  async function itemsAfterRetirement(recordId?: string) {
    const read = async () => (await items()).filter((item) => !recordId || item.recordId === recordId);
    const deadline = Date.now() + 2000;
    let left = await read();
    while (left.length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      left = await read();
    }
    return left;
  }
  /** A record as stored, hidden events and all (straight from the collection). */
  const storedDoc = (id: string) => store.connection.db!.collection('registrations').findOne({ _id: id as never });
  const storedEventIds = async (id: string) =>
    (((await storedDoc(id))?.outbox ?? []) as { id: string }[]).map((event) => event.id);
  const entriesOf = (targetId: string) =>
    store.audit.list({ organizationId: context.organization.id, targetId, limit: 10 });

  before(async () => {
    store = await freshMongoStore(uri, dbName);
    await migrate(store.connection);
    const organization = await store.organizations.create({ name: 'Due', plan: 'enterprise' });
    context = { organization, principal: { sub: 'alice', scopes: ALL_SCOPES }, role: 'owner' };
  });
  beforeEach(() => {
    now = Date.parse('2026-06-01T00:00:00Z');
  });
  afterEach(() => dueItemModel(store.connection).deleteMany({}));
  after(async () => {
    await store.close();
    await dropDatabase(uri, dbName);
  });

  it('creates: writes the record and its entry with inserts only, and leaves no due item behind', async () => {
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
    expect(await itemsAfterRetirement()).to.deep.equal([]);
    expect((await store.registrations.get(context.organization.id, created.id))?.outbox).to.equal(undefined);
  });

  /** The store as an instance whose audit write failed right after the record insert saw it. */
  const cutOff = (): Store => ({
    ...store,
    audit: {
      append: () => Promise.reject(new Error('killed between the record insert and the audit insert')),
      list: store.audit.list.bind(store.audit),
    },
  });

  /**
   * A create that died after its insert with only its events on the record (no `outboxAt`, the database failing
   * for that write too): made with a delivery that claims success without writing the entry, its item put back
   * as the crash would have left it.
   */
  async function createCutOffUnmarked(options: { idempotencyKey?: string; itemAt: Date }) {
    const registrations = Object.create(store.registrations) as Store['registrations'];
    registrations.create = (record, createOptions) =>
      store.registrations.create(record, {
        ...createOptions,
        deliver: async (events) => events.map((event) => event.id),
      });
    const created = await createRegistration({ store: { ...store, registrations }, clock }, context, INPUT, options);
    expect(await itemsAfterRetirement(created.id)).to.deep.equal([]);
    const eventIds = await storedEventIds(created.id);
    await dueItemModel(store.connection).create({
      _id: eventIds[0],
      holder: 'registrations',
      recordId: created.id,
      organizationId: context.organization.id,
      eventIds,
      at: options.itemAt,
    });
    return created;
  }

  it('delivers the entry of a create cut off after its insert at the next drain, and retires its item', async () => {
    const created = await createRegistration({ store: cutOff(), clock }, context, INPUT);
    expect(await entriesOf(created.id)).to.deep.equal([]);
    expect((await items()).map((item) => item.recordId)).to.deep.equal([created.id]);

    now += 1000;
    expect(await drainOutbox({ store, clock })).to.equal(1);
    expect((await entriesOf(created.id)).map((entry) => entry.action)).to.deep.equal(['create']);
    expect(await itemsAfterRetirement()).to.deep.equal([]);
    expect(await drainOutbox({ store, clock })).to.equal(0);
  });

  it('keeps the item of a create whose entry was not delivered past the horizon: its record is there', async () => {
    const created = await createRegistration({ store: cutOff(), clock }, context, INPUT);
    expect((await store.registrations.get(context.organization.id, created.id))?.outbox).to.have.length(1);
    now += 60 * 60_000;
    expect(await drainOutbox({ store, clock })).to.equal(1);
    expect((await entriesOf(created.id)).map((entry) => entry.action)).to.deep.equal(['create']);
  });

  it('delivers the entry a create could not deliver when the client retries it with the same Idempotency-Key', async () => {
    const first = await createCutOffUnmarked({ idempotencyKey: 'retry-1', itemAt: new Date(now) });
    expect(await entriesOf(first.id)).to.deep.equal([]);
    const retry = await createRegistration({ store, clock }, context, INPUT, { idempotencyKey: 'retry-1' });
    expect(retry.id).to.equal(first.id);
    expect((await entriesOf(first.id)).map((entry) => entry.action)).to.deep.equal(['create']);
    expect(await itemsAfterRetirement()).to.deep.equal([]);
  });

  it('reads past a run of items whose records never landed to the write that is due', async () => {
    const Items = dueItemModel(store.connection);
    await Items.insertMany(
      Array.from({ length: 250 }, (_, i) => ({
        _id: `aud_orphan${String(i).padStart(16, '0')}`,
        holder: 'registrations',
        recordId: `reg_orphan${String(i).padStart(16, '0')}`,
        organizationId: context.organization.id,
        eventIds: [`aud_orphan${String(i).padStart(16, '0')}`],
        at: new Date(now - 1000),
      })),
    );
    const created = await createCutOffUnmarked({ itemAt: new Date(now - 500) });
    expect((await storedDoc(created.id))?.outboxAt).to.equal(undefined);
    now += 1000;
    expect(await drainOutbox({ store, clock })).to.equal(1);
    expect((await entriesOf(created.id)).map((entry) => entry.action)).to.deep.equal(['create']);
  });

  it('keeps an item whose record never landed for ten minutes, then drops it without an entry', async () => {
    const Items = dueItemModel(store.connection);
    await Items.create({
      _id: 'aud_neverlanded000000000000',
      holder: 'registrations',
      recordId: 'reg_neverlanded00000000000',
      organizationId: context.organization.id,
      eventIds: ['aud_neverlanded000000000000'],
      at: new Date(now),
    });
    now += 9 * 60_000;
    expect(await drainOutbox({ store, clock })).to.equal(0);
    // Kept: nothing was queued for retirement (a queued one would be gone well within this wait).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await items()).to.have.length(1);
    now += 2 * 60_000;
    expect(await drainOutbox({ store, clock })).to.equal(0);
    expect(await itemsAfterRetirement()).to.deep.equal([]);
    expect(await entriesOf('reg_neverlanded00000000000')).to.deep.equal([]);
  });
});
