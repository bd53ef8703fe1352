/**
 * The review queue on the MongoDB wire: read through an index of what awaits review (registrations.schema.ts
 * `reviewQueueAt`), not by filtering every registration — the cross-organization queue scanned the collection on
 * MongoDB too — and the schema-7 migration that gives records an older build wrote their place in it.
 */
import { expect } from 'chai';
import type { Registration } from '../../../../server/components/registrations/registrations.model.js';
import { registrationSchema } from '../../../../server/components/registrations/registrations.schema.js';
import { REVIEW_QUEUE_SCHEMA_VERSION } from '../../../../server/components/registrations/review-queue.migration.js';
import { migrate } from '../../../../server/store/migrate.js';
import { SCHEMA_COLLECTION } from '../../../../server/store/schema-version.js';
import { type MongoStore } from '../../../../server/store/mongo-store.js';
import { aRegistration, at, ORG_A, ORG_B } from '../../contract/fixtures.js';
import { describeWithMongo, suiteMongoStore } from '../../mongo/mongo-test-db.js';

/** Whether an index of the schema leads with `equality`, then `range`, in the sort's order (equality, sort, range). */
function servedByAnIndex(equality: string[], range: string, sort: Record<string, number>): boolean {
  const wanted = [...equality, ...Object.keys(sort)];
  return registrationSchema.indexes().some(([fields]) => {
    const keys = Object.keys(fields);
    return keys.slice(0, wanted.length).join() === wanted.join() && keys[equality.length] === range;
  });
}

describeWithMongo('the review queue on the mongo store', (uri) => {
  let store: MongoStore;
  suiteMongoStore(uri, (opened) => (store = opened));

  /** The find commands a queue read sends to the registrations collection: filter and options. */
  async function queueCommands(
    organizationId?: string,
  ): Promise<{ filter: Record<string, unknown>; sort: Record<string, number> }[]> {
    const seen: { filter: Record<string, unknown>; sort: Record<string, number> }[] = [];
    store.connection.set('debug', (collection: string, method: string, filter: unknown, options: unknown) => {
      if (collection === 'registrations' && method === 'find')
        seen.push({
          filter: filter as Record<string, unknown>,
          sort: (options as { sort: Record<string, number> }).sort,
        });
    });
    try {
      await store.registrations.listAwaitingReview({ organizationId, limit: 10 });
    } finally {
      store.connection.set('debug', false);
    }
    return seen;
  }

  it('reads across organizations, and within one, by a range and an order an index of the schema serves', async () => {
    for (const organizationId of [undefined, ORG_A]) {
      const [command, ...more] = await queueCommands(organizationId);
      expect(more, 'one query').to.deep.equal([]);
      const equality = organizationId === undefined ? [] : ['organizationId'];
      expect(command.filter).to.include.keys([...equality, 'reviewQueueAt']);
      expect(command.filter).to.not.have.keys(['$or', 'status', 'pendingChangeSetId']);
      expect(servedByAnIndex(equality, 'reviewQueueAt', command.sort), JSON.stringify(command)).to.equal(true);
    }
  });

  describe('the migration to schema version 7', () => {
    /** A record as a build before the queue's index stored it (no `reviewQueueAt`), or with the one given. */
    async function storedByAnOlderBuild(record: Registration, reviewQueueAt?: Date): Promise<void> {
      const { id, ...rest } = record;
      await store.connection.db!.collection('registrations').insertOne({
        _id: id as never,
        ...rest,
        ...(reviewQueueAt && { reviewQueueAt }),
      });
    }
    /** The schema version the database says it was migrated to. */
    const recordedVersion = (version: number) =>
      store.connection
        .db!.collection<{ _id: string }>(SCHEMA_COLLECTION)
        .updateOne({ _id: 'store' }, { $set: { version } });
    const queueOf = async () => (await store.registrations.listAwaitingReview({ limit: 10 })).map((r) => r.name);

    it('queues what awaited review and drops what an older instance decided, once: not again at version 7', async () => {
      await store.reset();
      await storedByAnOlderBuild(aRegistration({ name: 'submitted', status: 'pending_review', updatedAt: at(2) }));
      await storedByAnOlderBuild(
        aRegistration({
          name: 'proposed',
          organizationId: ORG_B,
          status: 'active',
          pendingChangeSetId: 'cs_1',
          updatedAt: at(1),
        }),
      );
      // Queued by this build, then approved by an instance of the older one during a rolling upgrade.
      await storedByAnOlderBuild(aRegistration({ name: 'approved', status: 'active', updatedAt: at(4) }), at(3));
      // Queued by this build, then edited by an instance of the older one (its place is its last change).
      await storedByAnOlderBuild(aRegistration({ name: 'edited', status: 'pending_review', updatedAt: at(5) }), at(0));
      await storedByAnOlderBuild(aRegistration({ name: 'draft', updatedAt: at(0) }));
      expect(await queueOf()).to.deep.equal(['edited', 'approved']);

      await recordedVersion(REVIEW_QUEUE_SCHEMA_VERSION - 1);
      expect((await migrate(store.connection)).reviewQueueUpdated).to.equal(4);
      expect(await queueOf()).to.deep.equal(['proposed', 'submitted', 'edited']);
      await recordedVersion(REVIEW_QUEUE_SCHEMA_VERSION - 1);
      expect((await migrate(store.connection)).reviewQueueUpdated, 'a second run').to.equal(0);
      // At version 7 the step does not run: it reads every registration, and MIGRATE_ON_START migrates at each start.
      await storedByAnOlderBuild(aRegistration({ name: 'late', status: 'pending_review', updatedAt: at(6) }));
      expect((await migrate(store.connection)).reviewQueueUpdated).to.equal(0);
      expect(await queueOf()).to.not.include('late');
    });
  });
});
