/**
 * Flat at scale on the MongoDB wire (issue 26): every command a request or a periodic job sends to a collection that
 * grows with registrations reads, changes or deletes by `{ _id }` alone, or inserts. MongoDB serves `{ _id }` from
 * its index; FerretDB 1.24 (SQLite) uses no index for any filter, but evaluates exactly `{ _id }` inside SQLite,
 * about ten times cheaper per document than any other filter (db/conditional-write.mongo.ts). Watched for the
 * requests and jobs an operator's small organization exercises while a large one holds the bulk of the data: its
 * list, a read by id (a draft, and an approved registration with its provisioning steps), capabilities, a create
 * under the plan's quota, an edit, a submit, a change-set proposal, a delete, the outbox drain and the provisioning
 * worker's poll. What it checks is the shape of each command (as mongoose sends it), not its time: `npm run bench`
 * measures that.
 */
import { expect } from 'chai';
import { drainOutbox } from '../../../server/components/outbox/outbox-drain.js';
import type { Registration } from '../../../server/components/registrations/registrations.model.js';
import { newId } from '../../../server/ids.js';
import { type MongoStore } from '../../../server/store/mongo-store.js';
import { startService, type ServiceHarness } from '../../support/service-harness.js';
import { describeWithMongo, dropDatabase, freshMongoStore, uniqueDbName } from '../mongo/mongo-test-db.js';

/** Collections whose size follows the number of registrations (and their history). */
const GROWING = new Set([
  'registrations',
  'change_sets',
  'audit_log',
  'comments',
  'provisioning_steps',
  'provisioned_clients',
  'idempotency_records',
  'idempotency_responses',
]);

/** Model methods that carry no filter (inserts); every other one's first argument is its filter. */
const UNFILTERED = new Set(['insertOne', 'insertMany', 'createIndex', 'createIndexes']);

const isIdLookup = (filter: unknown) =>
  typeof filter === 'object' &&
  filter !== null &&
  Object.keys(filter).length === 1 &&
  typeof (filter as { _id?: unknown })._id === 'string';

describeWithMongo('the queries of a small organization while a large one holds the data', (uri) => {
  const dbName = uniqueDbName();
  let store: MongoStore;
  let h: ServiceHarness;
  let token: string;
  const seen: string[] = [];
  let watched = 0;
  let watching = false;

  before(async () => {
    store = await freshMongoStore(uri, dbName);
    h = await startService({ store });
    token = await h.token();
    // Every repository query goes through a mongoose model (group-committed inserts aside, which carry no filter).
    store.connection.set('debug', (collection: string, method: string, ...args: unknown[]) => {
      if (!watching || !GROWING.has(collection)) return;
      watched += 1;
      if (method === 'aggregate') seen.push(`${method} ${collection}`);
      else if (!UNFILTERED.has(method) && !isIdLookup(args[0]))
        seen.push(`${method} ${collection} ${JSON.stringify(args[0])}`);
    });
  });
  after(async () => {
    await h.close();
    await dropDatabase(uri, dbName);
  });

  it('reads, changes and deletes records by _id only', async () => {
    const large = await h.createOrganization('enterprise', { name: 'Large' });
    const small = await h.createOrganization('pro', { name: 'Small' });
    const template = (id: string, organizationId: string): Registration => ({
      id,
      organizationId,
      name: id,
      description: '',
      clientType: 'confidential',
      applicationType: 'web',
      policyProfileId: 'pp_standard',
      config: { redirectUris: ['https://app.example.com/cb'] },
      status: 'draft',
      revision: 1,
      createdAt: new Date(),
      updatedAt: new Date(),
      createdBy: 'alice',
    });
    for (let i = 0; i < 30; i += 1) await store.registrations.upsert(template(newId('reg'), large.id));
    const base = `/api/v1/organizations/${small.id}`;
    const auth = { Authorization: `Bearer ${token}` };
    const body = { name: 'Small app', templateId: 'tpl_web', config: { redirectUris: ['https://app.example.com/cb'] } };
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1)
      ids.push(
        ((await h.request.post(`${base}/registrations`).set(auth).send(body).expect(201)).body as { id: string }).id,
      );
    // An approved registration, with the provisioning step its approval made (set up without watching).
    const approved = (await store.registrations.get(small.id, ids[2]))!;
    await store.registrations.update(
      { organizationId: small.id, id: approved.id },
      { status: 'active', clientId: `client-${approved.id}` },
      new Date(),
    );
    await store.provisioning.enqueue({
      organizationId: small.id,
      registrationId: approved.id,
      kind: 'register',
      revision: 2,
      now: new Date(),
    });

    watching = true;
    await h.request.get(`${base}/registrations`).set(auth).expect(200);
    await h.request.get(`${base}/registrations?status=draft&limit=2`).set(auth).expect(200);
    await h.request.get(`${base}/registrations/${ids[0]}`).set(auth).expect(200);
    await h.request.get(`${base}/registrations/${approved.id}`).set(auth).expect(200);
    await h.request.get(`${base}/capabilities`).set(auth).expect(200);
    const created = await h.request.post(`${base}/registrations`).set(auth).send(body).expect(201);
    await h.request.patch(`${base}/registrations/${ids[0]}`).set(auth).send({ description: 'edited' }).expect(200);
    await h.request.post(`${base}/registrations/${ids[0]}/actions/submit`).set(auth).send({}).expect(200);
    await h.request
      .post(`${base}/registrations/${approved.id}/change-sets`)
      .set(auth)
      .send({ changes: { clientUri: 'https://app.example.com' } })
      .expect(201);
    await h.request
      .delete(`${base}/registrations/${(created.body as { id: string }).id}`)
      .set(auth)
      .expect(204);
    await drainOutbox({ store, clock: () => new Date() });
    await store.provisioning.claimDue(new Date(), new Date(Date.now() + 60_000));
    await store.provisioning.claimDue(new Date(), new Date(Date.now() + 60_000));
    watching = false;

    expect(watched, 'commands seen on the growing collections').to.be.greaterThan(15);
    expect(seen, 'commands filtering a growing collection by more than _id').to.deep.equal([]);
  });
});
