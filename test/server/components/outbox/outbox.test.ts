/**
 * Audit with the write: every transition writes its audit entry (and provisioning step) in the
 * record's own update, so an acknowledged transition has its entry even when the work is killed right after the
 * record write. Here the audit log refuses every append — the process "dies" between the two writes — and the
 * entries appear once the outbox is drained: by the next transition's reader, at the start of another instance,
 * or before an audit read. Delivery is idempotent: draining again adds nothing. On both stores.
 */
import { expect } from 'chai';
import { apiError } from '../../../../server/errors.js';
import { readAuditLog } from '../../../../server/components/audit/audit-log.js';
import { createOutboxDrain, drainOutbox } from '../../../../server/components/outbox/outbox-drain.js';
import { proposeChangeSet, withdrawChangeSet } from '../../../../server/components/change-sets/change-sets.service.js';
import { createProvisioningHook } from '../../../../server/components/provisioning/provisioning-hook.js';
import {
  createRegistration,
  deleteRegistration,
  submitRegistration,
} from '../../../../server/components/registrations/registrations.service.js';
import type { ServiceDeps } from '../../../../server/components/registrations/service-deps.js';
import { decideRegistration } from '../../../../server/components/registrations/review.service.js';
import type { RequestContext } from '../../../../server/components/registrations/request-context.js';
import type { Store } from '../../../../server/deps.js';
import { migrate } from '../../../../server/store/migrate.js';
import { createMemoryStore } from '../../../../server/store/memory-store.js';
import { createMongoStore, type MongoStore } from '../../../../server/store/mongo-store.js';
import { describeWithMongo, dropDatabase, freshMongoStore, uniqueDbName } from '../../mongo/mongo-test-db.js';
import { ALL_SCOPES } from '../registrations/domain-fixtures.js';

const VALID = { redirectUris: ['https://app.example.com/cb'], grantTypes: ['authorization_code'] };

/** The store as the killed instance saw it: every record write works, the audit log never answers. */
function auditKilled(store: Store): Store {
  const audit = {
    append: async () => {
      throw new Error('killed between the record write and the audit write');
    },
    list: store.audit.list.bind(store.audit),
  };
  return { ...store, audit };
}

/** The store while a request holds one record's write lock: clearing that record's outbox answers 409 conflict. */
function recordLocked(store: Store, lockedId: string): Store {
  const registrations = Object.create(store.registrations) as Store['registrations'];
  registrations.clearOutbox = async (organizationId, id, eventIds) => {
    if (id === lockedId) throw apiError('conflict', 'The resource is being changed by another request; try again.');
    return store.registrations.clearOutbox(organizationId, id, eventIds);
  };
  return { ...store, registrations };
}

function outboxContract(
  name: string,
  open: () => Promise<{ store: Store; reopen: () => Promise<Store>; close: () => Promise<void> }>,
): void {
  describe(`transition outbox: ${name}`, () => {
    let store: Store;
    let reopen: () => Promise<Store>;
    let close: () => Promise<void>;
    let killed: ServiceDeps;
    let healthy: ServiceDeps;
    let context: RequestContext;
    beforeEach(async () => {
      ({ store, reopen, close } = await open());
      // A second per call: entries of one record are ordered by time, never by their random ids.
      let tick = Date.parse('2026-03-01T00:00:00Z');
      const clock = () => new Date((tick += 1000));
      killed = { store: auditKilled(store), clock };
      healthy = { store, clock, provisioning: createProvisioningHook({ store, clock }) };
      const organization = await store.organizations.create({ name: 'Outbox org', plan: 'enterprise' });
      context = { organization, principal: { sub: 'alice', scopes: ALL_SCOPES }, role: 'owner' };
    });
    afterEach(() => close());

    const entriesOf = (targetId: string) =>
      store.audit.list({ organizationId: context.organization.id, targetId, limit: 50 });

    it('acknowledges a create and a submit whose audit writes were killed, and their entries appear after the drain', async () => {
      const created = await createRegistration(killed, context, {
        name: 'Killed',
        templateId: 'tpl_web',
        config: VALID,
      });
      const submitted = await submitRegistration(killed, context, created.id, {});
      expect(submitted.status).to.equal('pending_review');
      expect(await entriesOf(created.id)).to.deep.equal([]);

      expect(await drainOutbox(healthy)).to.equal(1);
      const entries = await entriesOf(created.id);
      expect(entries.map((e) => [e.action, e.from, e.to, e.revision, e.actor])).to.deep.equal([
        ['create', undefined, 'draft', 1, 'alice'],
        ['submit', 'draft', 'pending_review', 2, 'alice'],
      ]);
      // Delivered means gone from the record, and a second drain delivers nothing twice.
      const stored = await store.registrations.get(context.organization.id, created.id);
      expect(stored?.outbox).to.equal(undefined);
      expect(stored?.revision).to.equal(2);
      expect(await drainOutbox(healthy)).to.equal(0);
      expect(await entriesOf(created.id)).to.have.length(2);
    });

    it('skips a record another request is writing and still delivers the others, then that one on the next run', async () => {
      const busy = await createRegistration(killed, context, { name: 'Busy', templateId: 'tpl_web', config: VALID });
      const idle = await createRegistration(killed, context, { name: 'Idle', templateId: 'tpl_web', config: VALID });

      expect(await drainOutbox({ ...healthy, store: recordLocked(store, busy.id) })).to.equal(1);
      expect((await entriesOf(idle.id)).map((e) => e.action)).to.deep.equal(['create']);
      const pending = await store.registrations.pendingOutbox({ before: healthy.clock(), limit: 10 });
      expect(pending.map((record) => record.id)).to.deep.equal([busy.id]);

      expect(await drainOutbox(healthy)).to.equal(1);
      expect((await entriesOf(busy.id)).map((e) => e.action)).to.deep.equal(['create']);
    });

    it('delivers the outbox of a killed instance when another instance starts, entry and provisioning step', async () => {
      const created = await createRegistration(healthy, context, {
        name: 'Approved',
        templateId: 'tpl_web',
        config: VALID,
      });
      await submitRegistration(healthy, context, created.id, {});
      await decideRegistration({ ...killed, provisioning: healthy.provisioning }, 'approve', {
        organizationId: context.organization.id,
        id: created.id,
        reviewer: 'rita',
        reason: 'fine',
      });
      expect((await entriesOf(created.id)).map((e) => e.action)).to.deep.equal(['create', 'submit']);
      expect(await store.provisioning.listSteps(context.organization.id, created.id)).to.deep.equal([]);

      const next = await reopen();
      const drain = createOutboxDrain({ store: next, clock: healthy.clock });
      drain.start(60_000);
      await drain.runDue();
      await drain.stop();
      const approval = (await entriesOf(created.id)).filter((e) => e.action === 'approve');
      expect(approval.map((e) => [e.actor, e.from, e.to, e.revision, e.reason])).to.deep.equal([
        ['rita', 'pending_review', 'active', 3, 'fine'],
      ]);
      expect(
        (await store.provisioning.listSteps(context.organization.id, created.id)).map((s) => [s.kind, s.revision]),
      ).to.deep.equal([['register', 3]]);
    });

    it('keeps a deleted record as an invisible tombstone until its delete entry is delivered, then removes it', async () => {
      const created = await createRegistration(healthy, context, { name: 'Deleted', templateId: 'tpl_web' });
      const before = await store.registrations.count(context.organization.id);
      await deleteRegistration(killed, context, created.id);
      expect(await store.registrations.get(context.organization.id, created.id)).to.equal(null);
      expect(await store.registrations.count(context.organization.id)).to.equal(before - 1);
      expect((await entriesOf(created.id)).map((e) => e.action)).to.deep.equal(['create']);

      // An audit read delivers what is pending first.
      const log = await readAuditLog(healthy, { organizationId: context.organization.id, limit: 50 });
      expect(
        log.filter((e) => e.targetId === created.id).map((e) => [e.action, e.from, e.to, e.revision]),
      ).to.deep.equal([
        ['create', undefined, 'draft', 1],
        ['delete', 'draft', 'removed', 1],
      ]);
      expect(await store.registrations.pendingOutbox({ before: healthy.clock(), limit: 10 })).to.deep.equal([]);
    });

    it('delivers a change set proposal and withdrawal written while the audit log was down', async () => {
      const registration = await store.registrations.upsert({
        id: 'reg_OutboxActive00000001',
        organizationId: context.organization.id,
        name: 'Active',
        description: '',
        clientType: 'confidential',
        applicationType: 'web',
        policyProfileId: 'pp_standard',
        config: VALID,
        status: 'active',
        clientId: 'client-outbox-1',
        revision: 4,
        createdAt: new Date(),
        updatedAt: new Date(),
        createdBy: 'alice',
      });
      const proposed = await proposeChangeSet(killed, context, registration.id, { changes: { scopes: ['openid'] } });
      await withdrawChangeSet(killed, context, registration.id, proposed.id, {});
      expect(await entriesOf(proposed.id)).to.deep.equal([]);
      expect(await drainOutbox(healthy)).to.equal(2);
      expect((await entriesOf(proposed.id)).map((e) => [e.action, e.from, e.to, e.registrationId])).to.deep.equal([
        ['propose', undefined, 'pending_review', registration.id],
        ['withdraw', 'pending_review', 'withdrawn', registration.id],
      ]);
    });
  });
}

outboxContract('embedded', async () => {
  const store = createMemoryStore();
  // One process: "another instance" is the same memory.
  return { store, reopen: async () => store, close: async () => undefined };
});

describeWithMongo('transition outbox on MongoDB', (uri) => {
  const dbName = uniqueDbName();
  after(() => dropDatabase(uri, dbName));
  outboxContract('mongo', async () => {
    const store = await freshMongoStore(uri, dbName);
    await migrate(store.connection);
    const others: MongoStore[] = [];
    return {
      store,
      async reopen() {
        const other = await createMongoStore(uri, { dbName });
        others.push(other);
        return other;
      },
      async close() {
        for (const other of others) await other.close();
        await store.close();
      },
    };
  });
});
