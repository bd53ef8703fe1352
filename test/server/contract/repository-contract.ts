/**
 * The repository contract (DESIGN.md §1.9): every store implementation — embedded now, mongo later — must pass
 * these. `makeStore` returns a fresh, empty store for each test; `Store#close` releases it.
 */
import { expect } from 'chai';
import type { Store } from '../../../server/deps.js';
import { aChangeSet, aRegistration, at, T0 } from './fixtures.js';

const ORG_A = 'org_AAAAAAAAAAAAAAAAAAAAAA';
const ORG_B = 'org_BBBBBBBBBBBBBBBBBBBBBB';

/**
 * The race tests need single-document atomic conditional writes from the backend (MongoDB gives them; FerretDB 1.x
 * on SQLite does not on its own — measured: two racing findOneAndUpdate both matched in 19 of 20 rounds — so a
 * mongo implementation must add its own compare-and-set there).
 */
export function repositoryContract(implementation: string, makeStore: () => Promise<Store>): void {
  describe(`repository contract: ${implementation}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close();
    });

    describe('registrations', () => {
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
        const update = await store.registrations.update({ organizationId: ORG_B, id: record.id }, { name: 'stolen' }, at(1));
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
        expect(await store.registrations.create({ ...record, name: 'again' })).to.deep.equal({ ok: false, reason: 'duplicate' });
      });

      it('refuses to create past the organization quota, counting only that organization', async () => {
        await store.registrations.create(aRegistration(), { maxInOrganization: 2 });
        await store.registrations.create(aRegistration({ organizationId: ORG_B }), { maxInOrganization: 2 });
        expect((await store.registrations.create(aRegistration(), { maxInOrganization: 2 })).ok).to.equal(true);
        expect(await store.registrations.create(aRegistration(), { maxInOrganization: 2 })).to.deep.equal({ ok: false, reason: 'limit_reached' });
        expect((await store.registrations.create(aRegistration(), { maxInOrganization: null })).ok).to.equal(true);
        expect(await store.registrations.count(ORG_A)).to.equal(3);
      });

      it('never lets concurrent creates exceed the quota', async () => {
        const outcomes = await Promise.all(Array.from({ length: 6 }, () => store.registrations.create(aRegistration(), { maxInOrganization: 3 })));
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
          record: { ...record, status: 'pending_review', submittedAt: at(9), submittedBy: 'alice', revision: 2, updatedAt: at(10) },
        });
        expect(await store.registrations.get(ORG_A, record.id)).to.deep.equal(outcome.ok && outcome.record);
      });

      it('tells a stale revision from a wrong status and leaves the record unchanged', async () => {
        const record = aRegistration({ revision: 4 });
        await store.registrations.create(record);
        const stale = await store.registrations.update({ organizationId: ORG_A, id: record.id, revisionIn: [3] }, { name: 'x' }, at(1));
        expect(stale).to.deep.equal({ ok: false, reason: 'stale_revision', current: record });
        const status = await store.registrations.update({ organizationId: ORG_A, id: record.id, statusIn: ['active'], revisionIn: [4] }, { name: 'x' }, at(1));
        expect(status).to.deep.equal({ ok: false, reason: 'invalid_status', current: record });
        const none = await store.registrations.update({ organizationId: ORG_A, id: record.id, revisionIn: [] }, { name: 'x' }, at(1));
        expect(none.ok === false && none.reason).to.equal('stale_revision');
        expect(await store.registrations.get(ORG_A, record.id)).to.deep.equal(record);
      });

      it('lets exactly one of two concurrent updates with the same revision win', async () => {
        const record = aRegistration();
        await store.registrations.create(record);
        const results = await Promise.all(
          ['first', 'second'].map((name) => store.registrations.update({ organizationId: ORG_A, id: record.id, revisionIn: [1] }, { name }, at(1))),
        );
        expect(results.filter((r) => r.ok)).to.have.length(1);
        expect(results.filter((r) => !r.ok && r.reason === 'stale_revision')).to.have.length(1);
        expect((await store.registrations.get(ORG_A, record.id))?.revision).to.equal(2);
      });

      it('holds the change-set lock: set only when free, cleared only by its holder', async () => {
        const record = aRegistration({ status: 'active' });
        await store.registrations.create(record);
        const take = await store.registrations.update({ organizationId: ORG_A, id: record.id, pendingChangeSetId: null }, { pendingChangeSetId: 'cs_1111111111111111' }, at(1));
        expect(take.ok && take.record.pendingChangeSetId).to.equal('cs_1111111111111111');
        const again = await store.registrations.update({ organizationId: ORG_A, id: record.id, pendingChangeSetId: null }, { pendingChangeSetId: 'cs_2222222222222222' }, at(2));
        expect(again.ok === false && again.reason).to.equal('guard_failed');
        const wrongHolder = await store.registrations.update({ organizationId: ORG_A, id: record.id, pendingChangeSetId: 'cs_2222222222222222' }, { pendingChangeSetId: null }, at(3));
        expect(wrongHolder.ok === false && wrongHolder.reason).to.equal('guard_failed');
        const release = await store.registrations.update({ organizationId: ORG_A, id: record.id, pendingChangeSetId: 'cs_1111111111111111' }, { pendingChangeSetId: null }, at(4));
        expect(release.ok).to.equal(true);
        expect(release.ok && 'pendingChangeSetId' in release.record).to.equal(false);
      });

      it('removes optional fields set to null', async () => {
        const record = aRegistration({ submittedAt: at(1), submittedBy: 'alice' });
        await store.registrations.create(record);
        const outcome = await store.registrations.update({ organizationId: ORG_A, id: record.id }, { submittedAt: null, submittedBy: null }, at(2));
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
        expect(all.map((r) => r.id)).to.deep.equal(['reg_0000000000000000B', 'reg_0000000000000000A', 'reg_0000000000000000C', 'reg_0000000000000000D']);
        const first = await store.registrations.list({ organizationId: ORG_A, limit: 2 });
        const last = first[first.length - 1];
        const rest = await store.registrations.list({ organizationId: ORG_A, limit: 10, after: { createdAt: last.createdAt, id: last.id } });
        expect([...first, ...rest].map((r) => r.id)).to.deep.equal(all.map((r) => r.id));
        const active = await store.registrations.list({ organizationId: ORG_A, limit: 10, status: 'active' });
        expect(active.map((r) => r.id)).to.deep.equal(['reg_0000000000000000B', 'reg_0000000000000000D']);
      });

      it('deletes conditionally on status and revision', async () => {
        const record = aRegistration({ status: 'active' });
        await store.registrations.create(record);
        const refused = await store.registrations.delete({ organizationId: ORG_A, id: record.id, statusIn: ['draft', 'rejected'] });
        expect(refused.ok === false && refused.reason).to.equal('invalid_status');
        const removed = await store.registrations.delete({ organizationId: ORG_A, id: record.id, revisionIn: [1] });
        expect(removed).to.deep.equal({ ok: true, record });
        expect(await store.registrations.get(ORG_A, record.id)).to.equal(null);
        expect(await store.registrations.count(ORG_A)).to.equal(0);
      });

      it('keeps clientId unique across organizations', async () => {
        await store.registrations.upsert(aRegistration({ status: 'active', clientId: 'existing-1' }));
        let failure: unknown;
        try {
          await store.registrations.upsert(aRegistration({ organizationId: ORG_B, status: 'active', clientId: 'existing-1' }));
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
    });

    describe('change sets', () => {
      it('stores, reads and lists change sets of one registration in one organization only', async () => {
        const registrationId = 'reg_0000000000000000R';
        const mine = [aChangeSet({ registrationId, createdAt: at(2) }), aChangeSet({ registrationId, createdAt: at(1), status: 'withdrawn' })];
        const foreign = aChangeSet({ registrationId, organizationId: ORG_B });
        const sibling = aChangeSet({ registrationId: 'reg_0000000000000000S' });
        for (const c of [...mine, foreign, sibling]) expect((await store.changeSets.create(c)).ok).to.equal(true);
        expect(await store.changeSets.get(ORG_A, registrationId, mine[0].id)).to.deep.equal(mine[0]);
        expect(await store.changeSets.get(ORG_B, registrationId, mine[0].id)).to.equal(null);
        expect(await store.changeSets.get(ORG_A, 'reg_0000000000000000S', mine[0].id)).to.equal(null);
        const listed = await store.changeSets.list({ organizationId: ORG_A, registrationId, limit: 10 });
        expect(listed.map((c) => c.id)).to.deep.equal([mine[1].id, mine[0].id]);
        const pending = await store.changeSets.list({ organizationId: ORG_A, registrationId, limit: 10, status: 'pending_review' });
        expect(pending.map((c) => c.id)).to.deep.equal([mine[0].id]);
        expect(await store.changeSets.create(mine[0])).to.deep.equal({ ok: false, reason: 'duplicate' });
      });

      it('updates conditionally and tells not found, stale and wrong status apart', async () => {
        const record = aChangeSet();
        await store.changeSets.create(record);
        const filter = { organizationId: ORG_A, registrationId: record.registrationId, id: record.id };
        expect((await store.changeSets.update({ ...filter, organizationId: ORG_B }, { status: 'withdrawn' }, at(1))).ok === false).to.equal(true);
        const stale = await store.changeSets.update({ ...filter, revisionIn: [7] }, { status: 'withdrawn' }, at(1));
        expect(stale).to.deep.equal({ ok: false, reason: 'stale_revision', current: record });
        const wrong = await store.changeSets.update({ ...filter, statusIn: ['approved'] }, { status: 'withdrawn' }, at(1));
        expect(wrong).to.deep.equal({ ok: false, reason: 'invalid_status', current: record });
        const done = await store.changeSets.update({ ...filter, statusIn: ['pending_review'], revisionIn: [1] }, { status: 'withdrawn', decidedAt: at(2) }, at(3));
        expect(done).to.deep.equal({ ok: true, record: { ...record, status: 'withdrawn', decidedAt: at(2), revision: 2, updatedAt: at(3) } });
      });
    });

    describe('idempotency records', () => {
      const scope = { organizationId: ORG_A, subject: 'alice', key: 'key-00000001' };
      const timing = { leaseMs: 60_000, ttlMs: 86_400_000 };
      const response = { status: 201, headers: { location: 'https://x.example/r/1' }, body: { id: 'reg_1' } };

      it('claims a key once, reports it in flight, then replays the stored response', async () => {
        expect(await store.idempotency.begin({ ...scope, ...timing, fingerprint: 'f1', now: T0 })).to.deep.equal({ outcome: 'started' });
        expect(await store.idempotency.begin({ ...scope, ...timing, fingerprint: 'f1', now: at(1) })).to.deep.equal({ outcome: 'in_flight' });
        await store.idempotency.complete({ ...scope, response });
        expect(await store.idempotency.begin({ ...scope, ...timing, fingerprint: 'f1', now: at(2) })).to.deep.equal({ outcome: 'completed', response });
      });

      it('gives a key to exactly one of several concurrent claims', async () => {
        const outcomes = await Promise.all(
          Array.from({ length: 5 }, () => store.idempotency.begin({ ...scope, ...timing, fingerprint: 'f1', now: T0 })),
        );
        expect(outcomes.filter((o) => o.outcome === 'started')).to.have.length(1);
        expect(outcomes.filter((o) => o.outcome === 'in_flight')).to.have.length(4);
      });

      it('reports a different fingerprint as a mismatch, in flight or done', async () => {
        await store.idempotency.begin({ ...scope, ...timing, fingerprint: 'f1', now: T0 });
        expect(await store.idempotency.begin({ ...scope, ...timing, fingerprint: 'f2', now: at(1) })).to.deep.equal({ outcome: 'mismatch' });
        await store.idempotency.complete({ ...scope, response });
        expect(await store.idempotency.begin({ ...scope, ...timing, fingerprint: 'f2', now: at(2) })).to.deep.equal({ outcome: 'mismatch' });
      });

      it('scopes keys to subject and organization', async () => {
        await store.idempotency.begin({ ...scope, ...timing, fingerprint: 'f1', now: T0 });
        await store.idempotency.complete({ ...scope, response });
        expect(await store.idempotency.begin({ ...scope, subject: 'mallory', ...timing, fingerprint: 'f1', now: at(1) })).to.deep.equal({ outcome: 'started' });
        expect(await store.idempotency.begin({ ...scope, organizationId: ORG_B, ...timing, fingerprint: 'f1', now: at(1) })).to.deep.equal({ outcome: 'started' });
      });

      it('forgets a record after its expiry; a dead claim is taken over after its lease by the same request only', async () => {
        await store.idempotency.begin({ ...scope, ...timing, fingerprint: 'f2', now: T0 });
        // The first attempt may have created something: another request under the key stays a mismatch.
        expect(await store.idempotency.begin({ ...scope, ...timing, fingerprint: 'f1', now: at(61) })).to.deep.equal({ outcome: 'mismatch' });
        expect(await store.idempotency.begin({ ...scope, ...timing, fingerprint: 'f2', now: at(61) })).to.deep.equal({ outcome: 'started' });
        expect(await store.idempotency.begin({ ...scope, ...timing, fingerprint: 'f2', now: at(62) })).to.deep.equal({ outcome: 'in_flight' });
        await store.idempotency.complete({ ...scope, response });
        expect((await store.idempotency.begin({ ...scope, ...timing, fingerprint: 'f2', now: at(86_000) })).outcome).to.equal('completed');
        expect(await store.idempotency.begin({ ...scope, ...timing, fingerprint: 'f3', now: at(61 + 86_400) })).to.deep.equal({ outcome: 'started' });
      });

      it('frees a released claim but never a completed record', async () => {
        await store.idempotency.begin({ ...scope, ...timing, fingerprint: 'f1', now: T0 });
        await store.idempotency.release(scope);
        expect(await store.idempotency.begin({ ...scope, ...timing, fingerprint: 'f2', now: at(1) })).to.deep.equal({ outcome: 'started' });
        await store.idempotency.complete({ ...scope, response });
        await store.idempotency.release(scope);
        expect((await store.idempotency.begin({ ...scope, ...timing, fingerprint: 'f2', now: at(2) })).outcome).to.equal('completed');
      });
    });

    describe('rate-limit counters', () => {
      it('allows up to the limit within a window, then refuses, per key', async () => {
        const key = `contract-${Math.random()}`;
        const results = [];
        for (let i = 0; i < 4; i += 1) results.push(await store.rateLimits.consume(key, 3, 60_000));
        expect(results.map((r) => r.allowed)).to.deep.equal([true, true, true, false]);
        expect(results.map((r) => r.remaining)).to.deep.equal([2, 1, 0, 0]);
        expect(results.every((r) => r.resetMs > 0 && r.resetMs <= 60_000)).to.equal(true);
        expect((await store.rateLimits.consume(`${key}-other`, 3, 60_000)).allowed).to.equal(true);
      });
    });
  });
}
