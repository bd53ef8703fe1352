/** The repository contract (docs/architecture.md §1.9) of registration storage: CRUD, tenant isolation, quotas, conditional writes, revision conflicts, keyset order, uniqueness, the outbox. */
import { expect } from 'chai';
import type { Store } from '../../../server/deps.js';
import { ORG_A, ORG_B, aRegistration, at } from './fixtures.js';
import { newId } from '../../../server/ids.js';

/**
 * The race tests need single-document atomic conditional writes from the backend (MongoDB gives them; FerretDB 1.x
 * on SQLite does not on its own — measured: two racing findOneAndUpdate both matched in 19 of 20 rounds — so the
 * mongo implementation adds its own compare-and-set there, server/db/write-locks.ts).
 */
export function registrationsContract(implementation: string, makeStore: () => Promise<Store>): void {
  describe(`registrations repository contract: ${implementation}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close();
    });

    it('stores a created record and returns an equal one', async () => {
      const record = aRegistration({ submittedAt: at(5) });
      const created = await store.registrations.create(record);
      expect(created).to.deep.equal({ ok: true, record });
      expect(await store.registrations.get(ORG_A, record.id)).to.deep.equal(record);
    });

    it('never returns a record to another organization', async () => {
      const record = aRegistration();
      await store.registrations.create(record);
      expect(await store.registrations.get(ORG_B, record.id)).to.equal(null);
      expect(await store.registrations.list({ organizationId: ORG_B, limit: 10 })).to.deep.equal([]);
      expect(await store.registrations.count(ORG_B)).to.equal(0);
      const update = await store.registrations.update(
        { organizationId: ORG_B, id: record.id },
        { name: 'stolen' },
        at(1),
      );
      expect(update.ok).to.equal(false);
      expect(update.ok === false && update.reason).to.equal('not_found');
      expect(update.ok === false && update.current).to.equal(undefined);
      const removal = await store.registrations.delete({ organizationId: ORG_B, id: record.id });
      expect(removal.ok === false && removal.reason).to.equal('not_found');
      expect(await store.registrations.get(ORG_A, record.id)).to.deep.equal(record);
    });

    it('refuses a second record with the same id', async () => {
      const record = aRegistration();
      await store.registrations.create(record);
      expect(await store.registrations.create({ ...record, name: 'again' })).to.deep.equal({
        ok: false,
        reason: 'duplicate',
      });
    });

    it('refuses to create past the organization quota, counting only that organization', async () => {
      await store.registrations.create(aRegistration(), { maxInOrganization: 2 });
      await store.registrations.create(aRegistration({ organizationId: ORG_B }), { maxInOrganization: 2 });
      expect((await store.registrations.create(aRegistration(), { maxInOrganization: 2 })).ok).to.equal(true);
      expect(await store.registrations.create(aRegistration(), { maxInOrganization: 2 })).to.deep.equal({
        ok: false,
        reason: 'limit_reached',
      });
      expect((await store.registrations.create(aRegistration(), { maxInOrganization: null })).ok).to.equal(true);
      expect(await store.registrations.count(ORG_A)).to.equal(3);
    });

    it('never lets concurrent creates exceed the quota', async () => {
      const outcomes = await Promise.all(
        Array.from({ length: 6 }, () => store.registrations.create(aRegistration(), { maxInOrganization: 3 })),
      );
      expect(outcomes.filter((o) => o.ok)).to.have.length(3);
      expect(outcomes.filter((o) => !o.ok && o.reason === 'limit_reached')).to.have.length(3);
      expect(await store.registrations.count(ORG_A)).to.equal(3);
    });

    it('applies a conditional update, adds one to the revision and sets updatedAt', async () => {
      const record = aRegistration();
      await store.registrations.create(record);
      const outcome = await store.registrations.update(
        { organizationId: ORG_A, id: record.id, statusIn: ['draft'], revisionIn: [1] },
        { status: 'pending_review', submittedAt: at(9), submittedBy: 'alice' },
        at(10),
      );
      expect(outcome).to.deep.equal({
        ok: true,
        record: {
          ...record,
          status: 'pending_review',
          submittedAt: at(9),
          submittedBy: 'alice',
          revision: 2,
          updatedAt: at(10),
        },
      });
      expect(await store.registrations.get(ORG_A, record.id)).to.deep.equal(outcome.ok && outcome.record);
    });

    it('tells a stale revision from a wrong status and leaves the record unchanged', async () => {
      const record = aRegistration({ revision: 4 });
      await store.registrations.create(record);
      const stale = await store.registrations.update(
        { organizationId: ORG_A, id: record.id, revisionIn: [3] },
        { name: 'x' },
        at(1),
      );
      expect(stale).to.deep.equal({ ok: false, reason: 'stale_revision', current: record });
      const status = await store.registrations.update(
        { organizationId: ORG_A, id: record.id, statusIn: ['active'], revisionIn: [4] },
        { name: 'x' },
        at(1),
      );
      expect(status).to.deep.equal({ ok: false, reason: 'invalid_status', current: record });
      const none = await store.registrations.update(
        { organizationId: ORG_A, id: record.id, revisionIn: [] },
        { name: 'x' },
        at(1),
      );
      expect(none.ok === false && none.reason).to.equal('stale_revision');
      expect(await store.registrations.get(ORG_A, record.id)).to.deep.equal(record);
    });

    it('lets exactly one of two concurrent updates with the same revision win', async () => {
      const record = aRegistration();
      await store.registrations.create(record);
      const results = await Promise.all(
        ['first', 'second'].map((name) =>
          store.registrations.update({ organizationId: ORG_A, id: record.id, revisionIn: [1] }, { name }, at(1)),
        ),
      );
      expect(results.filter((r) => r.ok)).to.have.length(1);
      expect(results.filter((r) => !r.ok && r.reason === 'stale_revision')).to.have.length(1);
      expect((await store.registrations.get(ORG_A, record.id))?.revision).to.equal(2);
    });

    it('holds the change-set lock: set only when free, cleared only by its holder', async () => {
      const record = aRegistration({ status: 'active' });
      await store.registrations.create(record);
      const take = await store.registrations.update(
        { organizationId: ORG_A, id: record.id, pendingChangeSetId: null },
        { pendingChangeSetId: 'cs_1111111111111111' },
        at(1),
      );
      expect(take.ok && take.record.pendingChangeSetId).to.equal('cs_1111111111111111');
      const again = await store.registrations.update(
        { organizationId: ORG_A, id: record.id, pendingChangeSetId: null },
        { pendingChangeSetId: 'cs_2222222222222222' },
        at(2),
      );
      expect(again.ok === false && again.reason).to.equal('guard_failed');
      const wrongHolder = await store.registrations.update(
        { organizationId: ORG_A, id: record.id, pendingChangeSetId: 'cs_2222222222222222' },
        { pendingChangeSetId: null },
        at(3),
      );
      expect(wrongHolder.ok === false && wrongHolder.reason).to.equal('guard_failed');
      const release = await store.registrations.update(
        { organizationId: ORG_A, id: record.id, pendingChangeSetId: 'cs_1111111111111111' },
        { pendingChangeSetId: null },
        at(4),
      );
      expect(release.ok).to.equal(true);
      expect(release.ok && 'pendingChangeSetId' in release.record).to.equal(false);
    });

    it('removes optional fields set to null', async () => {
      const record = aRegistration({ submittedAt: at(1), submittedBy: 'alice' });
      await store.registrations.create(record);
      const outcome = await store.registrations.update(
        { organizationId: ORG_A, id: record.id },
        { submittedAt: null, submittedBy: null },
        at(2),
      );
      const stored = await store.registrations.get(ORG_A, record.id);
      expect(outcome.ok).to.equal(true);
      expect(stored).to.not.have.property('submittedAt');
      expect(stored).to.not.have.property('submittedBy');
    });

    it('lists by (createdAt, id) ascending, pages after a key and filters by status', async () => {
      const records = [
        aRegistration({ id: 'reg_0000000000000000C', createdAt: at(2) }),
        aRegistration({ id: 'reg_0000000000000000B', createdAt: at(1), status: 'active' }),
        aRegistration({ id: 'reg_0000000000000000A', createdAt: at(2) }),
        aRegistration({ id: 'reg_0000000000000000D', createdAt: at(3), status: 'active' }),
        aRegistration({ id: 'reg_0000000000000000E', createdAt: at(0), organizationId: ORG_B }),
      ];
      for (const r of records) await store.registrations.create(r);
      const all = await store.registrations.list({ organizationId: ORG_A, limit: 10 });
      expect(all.map((r) => r.id)).to.deep.equal([
        'reg_0000000000000000B',
        'reg_0000000000000000A',
        'reg_0000000000000000C',
        'reg_0000000000000000D',
      ]);
      const first = await store.registrations.list({ organizationId: ORG_A, limit: 2 });
      const last = first[first.length - 1];
      const rest = await store.registrations.list({
        organizationId: ORG_A,
        limit: 10,
        after: { createdAt: last.createdAt, id: last.id },
      });
      expect([...first, ...rest].map((r) => r.id)).to.deep.equal(all.map((r) => r.id));
      const active = await store.registrations.list({ organizationId: ORG_A, limit: 10, status: 'active' });
      expect(active.map((r) => r.id)).to.deep.equal(['reg_0000000000000000B', 'reg_0000000000000000D']);
    });

    it('lists a larger organization in the same order, pages and status filter, its deleted records left out', async () => {
      const ids = Array.from({ length: 12 }, (_, i) => `reg_000000000000000${String.fromCharCode(65 + i)}0`);
      // Created out of order, two of them in the same second, one of them deleted.
      for (const [i, id] of ids.entries())
        await store.registrations.create(
          aRegistration({ id, createdAt: at((i * 7) % 12), status: i % 3 === 0 ? 'active' : 'draft' }),
        );
      await store.registrations.create(aRegistration({ id: 'reg_0000000000000000Z0', createdAt: at(4) }));
      await store.registrations.delete({ organizationId: ORG_A, id: ids[5] });
      const expected = [...ids, 'reg_0000000000000000Z0']
        .filter((id) => id !== ids[5])
        .map((id) => ({ id, at: id.endsWith('Z0') ? 4 : (ids.indexOf(id) * 7) % 12 }))
        .sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1))
        .map((r) => r.id);
      const pages: string[] = [];
      let after: { createdAt: Date; id: string } | undefined;
      for (;;) {
        const page = await store.registrations.list({ organizationId: ORG_A, limit: 5, after });
        pages.push(...page.map((r) => r.id));
        if (page.length < 5) break;
        after = { createdAt: page[4].createdAt, id: page[4].id };
      }
      expect(pages).to.deep.equal(expected);
      expect(await store.registrations.count(ORG_A)).to.equal(12);
      const active = await store.registrations.list({ organizationId: ORG_A, limit: 10, status: 'active' });
      expect(active.map((r) => r.id)).to.deep.equal(expected.filter((id) => ids.indexOf(id) % 3 === 0));
    });

    it('deletes conditionally on status and revision', async () => {
      const record = aRegistration({ status: 'active' });
      await store.registrations.create(record);
      const refused = await store.registrations.delete({
        organizationId: ORG_A,
        id: record.id,
        statusIn: ['draft', 'rejected'],
      });
      expect(refused.ok === false && refused.reason).to.equal('invalid_status');
      const removed = await store.registrations.delete({ organizationId: ORG_A, id: record.id, revisionIn: [1] });
      expect(removed).to.deep.equal({ ok: true, record });
      expect(await store.registrations.get(ORG_A, record.id)).to.equal(null);
      expect(await store.registrations.count(ORG_A)).to.equal(0);
    });

    it('queues what awaits review, oldest change first, across organizations or within one, as records move', async () => {
      const queue = async (organizationId?: string) =>
        (await store.registrations.listAwaitingReview({ organizationId, limit: 10 })).map((r) => r.name);
      const submitted = aRegistration({ name: 'submitted', status: 'pending_review', updatedAt: at(3) });
      const proposed = aRegistration({
        name: 'proposed',
        status: 'active',
        pendingChangeSetId: 'cs_1',
        updatedAt: at(1),
      });
      const draft = aRegistration({ name: 'draft', updatedAt: at(2) });
      const elsewhere = aRegistration({
        name: 'elsewhere',
        organizationId: ORG_B,
        status: 'pending_review',
        updatedAt: at(2),
      });
      for (const record of [submitted, proposed, draft, elsewhere]) await store.registrations.create(record);
      expect(await queue()).to.deep.equal(['proposed', 'elsewhere', 'submitted']);
      expect(await queue(ORG_A)).to.deep.equal(['proposed', 'submitted']);

      // Submitted: joins at its update's time. Decided: leaves. Its change set closed: leaves.
      await store.registrations.update({ organizationId: ORG_A, id: draft.id }, { status: 'pending_review' }, at(4));
      await store.registrations.update({ organizationId: ORG_A, id: submitted.id }, { status: 'active' }, at(5));
      await store.registrations.update({ organizationId: ORG_A, id: proposed.id }, { pendingChangeSetId: null }, at(6));
      expect(await queue()).to.deep.equal(['elsewhere', 'draft']);
      // An edit of a queued record moves it behind the others, as its updatedAt does.
      await store.registrations.update({ organizationId: ORG_B, id: elsewhere.id }, { name: 'edited' }, at(7));
      expect(await queue()).to.deep.equal(['draft', 'edited']);
      // Replaced, or deleted: the queue follows.
      await store.registrations.upsert({ ...draft, status: 'rejected', updatedAt: at(8) });
      await store.registrations.delete({ organizationId: ORG_B, id: elsewhere.id });
      expect(await queue()).to.deep.equal([]);
    });

    it('keeps clientId unique across organizations', async () => {
      await store.registrations.upsert(aRegistration({ status: 'active', clientId: 'existing-1' }));
      let failure: unknown;
      try {
        await store.registrations.upsert(
          aRegistration({ organizationId: ORG_B, status: 'active', clientId: 'existing-1' }),
        );
      } catch (error) {
        failure = error;
      }
      expect(failure, 'a second registration with clientId existing-1 was stored').to.be.instanceOf(Error);
      expect(await store.registrations.count(ORG_B)).to.equal(0);
    });

    it('upserts by id: inserts, then replaces, in any status', async () => {
      const record = aRegistration({ status: 'active', clientId: 'imported-1', revision: 1 });
      expect(await store.registrations.upsert(record)).to.deep.equal(record);
      const replaced = { ...record, name: 'Renamed', status: 'suspended' as const };
      await store.registrations.upsert(replaced);
      expect(await store.registrations.get(ORG_A, record.id)).to.deep.equal(replaced);
      expect(await store.registrations.count(ORG_A)).to.equal(1);
    });

    it('hands out copies: changing a returned record changes nothing stored', async () => {
      const record = aRegistration();
      await store.registrations.create(record);
      const read = await store.registrations.get(ORG_A, record.id);
      read!.name = 'mutated';
      read!.config.redirectUris!.push('https://evil.example/cb');
      expect(await store.registrations.get(ORG_A, record.id)).to.deep.equal(record);
    });
    it('refuses a second record with the same idempotency key and answers with the first, before counting the quota', async () => {
      const key = JSON.stringify([ORG_A, 'alice', 'key-00000001']);
      const first = aRegistration({ idempotencyKey: key });
      expect((await store.registrations.create(first, { maxInOrganization: 1 })).ok).to.equal(true);
      const retry = await store.registrations.create(aRegistration({ idempotencyKey: key }), { maxInOrganization: 1 });
      expect(retry).to.deep.equal({ ok: false, reason: 'idempotency_key_taken', existing: first });
      const concurrent = await Promise.all(
        Array.from({ length: 4 }, () =>
          store.registrations.create(aRegistration({ idempotencyKey: JSON.stringify([ORG_A, 'bob', 'k-000001']) })),
        ),
      );
      expect(concurrent.filter((o) => o.ok)).to.have.length(1);
      expect(await store.registrations.findByIdempotencyKey(ORG_A, key)).to.deep.equal(first);
      expect(await store.registrations.findByIdempotencyKey(ORG_B, key)).to.equal(null);
      // Records without a key never collide with each other.
      expect((await store.registrations.create(aRegistration())).ok).to.equal(true);
      expect((await store.registrations.create(aRegistration())).ok).to.equal(true);
      expect(await store.registrations.count(ORG_A)).to.equal(4);
    });

    it('writes outbox events with the update, lists them as pending and clears delivered ones without a new revision', async () => {
      const record = aRegistration();
      await store.registrations.create(record);
      const event = (id: string) => ({
        id,
        kind: 'audit' as const,
        entry: {
          id,
          organizationId: ORG_A,
          targetType: 'registration' as const,
          targetId: record.id,
          action: 'submit',
          actor: 'alice',
          at: at(2),
        },
      });
      const written = await store.registrations.update(
        { organizationId: ORG_A, id: record.id, revisionIn: [1] },
        { name: 'Renamed' },
        at(2),
        [event('aud_0000000000000001'), event('aud_0000000000000002')],
      );
      expect(written.ok && written.record.outbox?.map((e) => e.id)).to.deep.equal([
        'aud_0000000000000001',
        'aud_0000000000000002',
      ]);
      expect(written.ok && written.record.outboxAt).to.deep.equal(at(2));
      expect(await store.registrations.pendingOutbox({ before: at(1), limit: 10 })).to.deep.equal([]);
      const pending = await store.registrations.pendingOutbox({ before: at(3), limit: 10 });
      expect(pending.map((r) => [r.id, r.outbox?.[0]?.kind === 'audit' && r.outbox[0].entry.at])).to.deep.equal([
        [record.id, at(2)],
      ]);
      await store.registrations.clearOutbox(ORG_B, record.id, ['aud_0000000000000001']);
      await store.registrations.clearOutbox(ORG_A, record.id, ['aud_0000000000000001']);
      const half = await store.registrations.get(ORG_A, record.id);
      expect(half?.outbox?.map((e) => e.id)).to.deep.equal(['aud_0000000000000002']);
      await store.registrations.clearOutbox(ORG_A, record.id, ['aud_0000000000000002']);
      expect(await store.registrations.get(ORG_A, record.id)).to.deep.equal({
        ...record,
        name: 'Renamed',
        revision: 2,
        updatedAt: at(2),
      });
      expect(await store.registrations.pendingOutbox({ before: at(3), limit: 10 })).to.deep.equal([]);
    });

    it('compares and sets the client secret on its version, leaving revision and updatedAt alone', async () => {
      const record = aRegistration({ status: 'active', clientId: `client-${newId('reg')}` });
      await store.registrations.create(record);
      const filter = { organizationId: ORG_A, id: record.id, statusIn: ['active', 'suspended'] as const };
      const first = { version: 1, issuedAt: at(3), sealed: 'v1.a.b.c', revealBy: at(9) };
      const audit = {
        id: 'aud_secret00000000001',
        kind: 'audit' as const,
        entry: {
          id: 'aud_secret00000000001',
          organizationId: ORG_A,
          targetType: 'registration' as const,
          targetId: record.id,
          action: 'reveal_secret',
          actor: 'alice',
          at: at(4),
        },
      };
      const written = await store.registrations.updateSecret(filter, null, first, at(3));
      expect(written.ok && written.record).to.deep.equal({ ...record, secret: first });
      // A writer that read no secret (or an older version) loses: the version decides.
      const stale = await store.registrations.updateSecret(filter, null, { ...first, version: 2 }, at(4));
      expect(stale.ok === false && stale.reason).to.equal('guard_failed');
      const revealed = { version: 2, issuedAt: at(3), revealedAt: at(4) };
      const next = await store.registrations.updateSecret(filter, 1, revealed, at(4), [audit]);
      expect(next.ok && next.record.outbox?.map((e) => e.id)).to.deep.equal(['aud_secret00000000001']);
      const stored = await store.registrations.get(ORG_A, record.id);
      expect(stored?.secret).to.deep.equal(revealed);
      expect(stored).to.include({ revision: record.revision });
      expect(stored?.updatedAt).to.deep.equal(record.updatedAt);
      expect((await store.registrations.pendingOutbox({ before: at(5), limit: 10 })).map((r) => r.id)).to.deep.equal([
        record.id,
      ]);
      // Another organization, another status, a removal.
      const foreign = await store.registrations.updateSecret({ ...filter, organizationId: ORG_B }, 2, null, at(5));
      expect(foreign.ok === false && foreign.reason).to.equal('not_found');
      const draft = aRegistration();
      await store.registrations.create(draft);
      const wrongStatus = await store.registrations.updateSecret({ ...filter, id: draft.id }, null, first, at(5));
      expect(wrongStatus.ok === false && wrongStatus.reason).to.equal('invalid_status');
      const removed = await store.registrations.updateSecret(filter, 2, null, at(5));
      expect(removed.ok && removed.record.secret).to.equal(undefined);
    });

    it('keeps a record deleted with outbox events as a tombstone no read sees, until they are cleared', async () => {
      const record = aRegistration();
      await store.registrations.create(record);
      const event = {
        id: 'aud_0000000000000003',
        kind: 'audit' as const,
        entry: {
          id: 'aud_0000000000000003',
          organizationId: ORG_A,
          targetType: 'registration' as const,
          targetId: record.id,
          action: 'delete',
          actor: 'alice',
          at: at(4),
        },
      };
      const removed = await store.registrations.delete(
        { organizationId: ORG_A, id: record.id, revisionIn: [1] },
        at(4),
        [event],
      );
      expect(removed).to.deep.equal({ ok: true, record });
      expect(await store.registrations.get(ORG_A, record.id)).to.equal(null);
      expect(await store.registrations.list({ organizationId: ORG_A, limit: 10 })).to.deep.equal([]);
      expect(await store.registrations.count(ORG_A)).to.equal(0);
      expect(
        (await store.registrations.update({ organizationId: ORG_A, id: record.id }, { name: 'x' }, at(5))).ok,
      ).to.equal(false);
      expect((await store.registrations.pendingOutbox({ before: at(5), limit: 10 })).map((r) => r.id)).to.deep.equal([
        record.id,
      ]);
      await store.registrations.clearOutbox(ORG_A, record.id, [event.id]);
      expect(await store.registrations.pendingOutbox({ before: at(5), limit: 10 })).to.deep.equal([]);
      // Gone for good: its id is free again.
      expect((await store.registrations.create(record)).ok).to.equal(true);
    });
    it('delivers the outbox right after the write when asked, keeping what was not delivered', async () => {
      const record = aRegistration();
      await store.registrations.create(record);
      const event = (id: string) => ({
        id,
        kind: 'audit' as const,
        entry: {
          id,
          organizationId: ORG_A,
          targetType: 'registration' as const,
          targetId: record.id,
          action: 'edit',
          actor: 'alice',
          at: at(2),
        },
      });
      const seen: string[][] = [];
      const written = await store.registrations.update(
        { organizationId: ORG_A, id: record.id, revisionIn: [1] },
        { name: 'Delivered' },
        at(2),
        [event('aud_0000000000000005'), event('aud_0000000000000006')],
        async (events) => {
          seen.push(events.map((e) => e.id));
          return ['aud_0000000000000005'];
        },
      );
      expect(seen).to.deep.equal([['aud_0000000000000005', 'aud_0000000000000006']]);
      expect(written.ok && written.record.outbox?.map((e) => e.id)).to.deep.equal(['aud_0000000000000006']);
      expect((await store.registrations.get(ORG_A, record.id))?.outbox?.map((e) => e.id)).to.deep.equal([
        'aud_0000000000000006',
      ]);
      const all = await store.registrations.update(
        { organizationId: ORG_A, id: record.id },
        {},
        at(3),
        [],
        async (events) => events.map((e) => e.id),
      );
      expect(all.ok && all.record.revision).to.equal(3);
      // The next write delivers what an earlier one left behind.
      expect(all.ok && all.record.outbox).to.equal(undefined);
      expect((await store.registrations.get(ORG_A, record.id))?.outbox).to.equal(undefined);
    });
  });
}
