/**
 * Migrating to schema version 5: what a schema-4 build left pending — records with an `outboxAt`, create intents,
 * unfinished provisioning steps — becomes due items, step lists and due steps, and every organization with
 * registrations gets its directory, so nothing is lost when the new build stops filtering the records' collections;
 * the collection and indexes no longer read go.
 */
import { expect } from 'chai';
import { type MongoStore } from '../../../server/store/mongo-store.js';
import { migrate } from '../../../server/store/migrate.js';
import { SCHEMA_COLLECTION } from '../../../server/store/schema-version.js';
import { describeWithMongo, suiteMongoStore } from '../mongo/mongo-test-db.js';

const ORG = 'org_upgrade00000000000000';
const at = new Date('2026-05-01T00:00:00Z');

const auditEvent = (id: string, targetId: string) => ({
  id,
  kind: 'audit',
  entry: { id, organizationId: ORG, targetType: 'registration', targetId, action: 'submit', actor: 'alice', at },
});

function registrationDoc(id: string, extra: Record<string, unknown> = {}) {
  return {
    _id: id,
    organizationId: ORG,
    name: id,
    description: '',
    clientType: 'public',
    applicationType: 'spa',
    policyProfileId: 'pp_standard',
    config: {},
    status: 'draft',
    revision: 1,
    createdAt: at,
    updatedAt: at,
    createdBy: 'alice',
    ...extra,
  };
}

describeWithMongo('migrating to schema version 5', (uri) => {
  let store: MongoStore;
  suiteMongoStore(uri, (opened) => (store = opened));

  it('turns pending outboxes, create intents and unfinished provisioning steps of a schema-4 database into what version 5 reads', async () => {
    const db = store.connection.db!;
    await db.collection<{ _id: string }>(SCHEMA_COLLECTION).updateOne({ _id: 'store' }, { $set: { version: 4 } });
    await db.collection('registrations').createIndex({ outboxAt: 1 }, { sparse: true });
    await db.collection('registration_create_intents').createIndex({ at: 1 });
    await db.collection('registrations').insertMany([
      // Marked pending the schema-4 way, and a create with hidden events and an intent.
      registrationDoc('reg_pending000000000000', {
        outbox: [auditEvent('aud_pending000000000000', 'reg_pending000000000000')],
        outboxAt: at,
      }),
      registrationDoc('reg_created000000000000', {
        outbox: [auditEvent('aud_created000000000000', 'reg_created000000000000')],
      }),
    ] as never[]);
    await db.collection('registration_create_intents').insertOne({
      _id: 'aud_created000000000000',
      recordId: 'reg_created000000000000',
      organizationId: ORG,
      eventIds: ['aud_created000000000000'],
      at,
    } as never);
    await db.collection('provisioning_steps').insertMany([
      {
        _id: 'reg_pending000000000000:register:2',
        organizationId: ORG,
        registrationId: 'reg_pending000000000000',
        kind: 'register',
        revision: 2,
        status: 'pending',
        attempts: 0,
        nextAttemptAt: at,
        createdAt: at,
        updatedAt: at,
      },
      {
        _id: 'reg_pending000000000000:update:1',
        organizationId: ORG,
        registrationId: 'reg_pending000000000000',
        kind: 'update',
        revision: 1,
        status: 'done',
        attempts: 1,
        nextAttemptAt: at,
        createdAt: new Date(at.getTime() - 1000),
        updatedAt: at,
      },
    ] as never[]);

    const report = await migrate(store.connection);
    expect(report).to.include({
      outboxItemsWritten: 2,
      provisioningStepsUpgraded: 2,
      directoriesWritten: 1,
      schemaVersionRecorded: true,
    });
    expect(await store.registrations.count(ORG)).to.equal(2);
    expect((await store.registrations.list({ organizationId: ORG, limit: 10 })).map((r) => r.id)).to.deep.equal([
      'reg_created000000000000',
      'reg_pending000000000000',
    ]);

    const later = new Date(at.getTime() + 60_000);
    const pending = await store.registrations.pendingOutbox({ before: later, limit: 10 });
    expect(pending.map((record) => record.id).sort()).to.deep.equal([
      'reg_created000000000000',
      'reg_pending000000000000',
    ]);
    expect((await store.provisioning.listSteps(ORG, 'reg_pending000000000000')).map((step) => step.kind)).to.deep.equal(
      ['update', 'register'],
    );
    expect(await store.provisioning.claimDue(later, new Date(later.getTime() + 60_000))).to.include({
      id: 'reg_pending000000000000:register:2',
      status: 'in_progress',
    });
    const collections = (await db.listCollections().toArray()).map((c) => c.name);
    expect(collections).not.to.include('registration_create_intents');
    expect((await db.collection('registrations').indexes()).map((index) => index.name)).not.to.include('outboxAt_1');

    // Once at version 5, a second run finds nothing to upgrade.
    expect(await migrate(store.connection)).to.include({
      outboxItemsWritten: 0,
      provisioningStepsUpgraded: 0,
      directoriesWritten: 0,
    });
  });
});
