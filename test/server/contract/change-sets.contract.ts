/** The repository contract (docs/architecture.md §1.9) of change-set storage: tenant isolation, keyset order, conditional transitions. */
import { expect } from 'chai';
import type { Store } from '../../../server/deps.js';
import { ORG_A, ORG_B, aChangeSet, at } from './fixtures.js';

export function changeSetsContract(implementation: string, makeStore: () => Promise<Store>): void {
  describe(`change sets repository contract: ${implementation}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close();
    });

    it('stores, reads and lists change sets of one registration in one organization only', async () => {
      const registrationId = 'reg_0000000000000000R';
      const mine = [
        aChangeSet({ registrationId, createdAt: at(2) }),
        aChangeSet({ registrationId, createdAt: at(1), status: 'withdrawn' }),
      ];
      const foreign = aChangeSet({ registrationId, organizationId: ORG_B });
      const sibling = aChangeSet({ registrationId: 'reg_0000000000000000S' });
      for (const c of [...mine, foreign, sibling]) expect((await store.changeSets.create(c)).ok).to.equal(true);
      expect(await store.changeSets.get(ORG_A, registrationId, mine[0].id)).to.deep.equal(mine[0]);
      expect(await store.changeSets.get(ORG_B, registrationId, mine[0].id)).to.equal(null);
      expect(await store.changeSets.get(ORG_A, 'reg_0000000000000000S', mine[0].id)).to.equal(null);
      const listed = await store.changeSets.list({ organizationId: ORG_A, registrationId, limit: 10 });
      expect(listed.map((c) => c.id)).to.deep.equal([mine[1].id, mine[0].id]);
      const pending = await store.changeSets.list({
        organizationId: ORG_A,
        registrationId,
        limit: 10,
        status: 'pending_review',
      });
      expect(pending.map((c) => c.id)).to.deep.equal([mine[0].id]);
      expect(await store.changeSets.create(mine[0])).to.deep.equal({ ok: false, reason: 'duplicate' });
    });

    it('updates conditionally and tells not found, stale and wrong status apart', async () => {
      const record = aChangeSet();
      await store.changeSets.create(record);
      const filter = { organizationId: ORG_A, registrationId: record.registrationId, id: record.id };
      expect(
        (await store.changeSets.update({ ...filter, organizationId: ORG_B }, { status: 'withdrawn' }, at(1))).ok ===
          false,
      ).to.equal(true);
      const stale = await store.changeSets.update({ ...filter, revisionIn: [7] }, { status: 'withdrawn' }, at(1));
      expect(stale).to.deep.equal({ ok: false, reason: 'stale_revision', current: record });
      const wrong = await store.changeSets.update(
        { ...filter, statusIn: ['approved'] },
        { status: 'withdrawn' },
        at(1),
      );
      expect(wrong).to.deep.equal({ ok: false, reason: 'invalid_status', current: record });
      const done = await store.changeSets.update(
        { ...filter, statusIn: ['pending_review'], revisionIn: [1] },
        { status: 'withdrawn', decidedAt: at(2) },
        at(3),
      );
      expect(done).to.deep.equal({
        ok: true,
        record: { ...record, status: 'withdrawn', decidedAt: at(2), revision: 2, updatedAt: at(3) },
      });
    });
    it('creates a change set with its outbox and clears delivered events', async () => {
      const event = {
        id: 'aud_0000000000000004',
        kind: 'audit' as const,
        entry: {
          id: 'aud_0000000000000004',
          organizationId: ORG_A,
          targetType: 'change_set' as const,
          targetId: 'cs_x',
          action: 'propose',
          actor: 'alice',
          at: at(1),
        },
      };
      const record = aChangeSet({ outbox: [event], outboxAt: at(1) });
      expect((await store.changeSets.create(record)).ok).to.equal(true);
      expect((await store.changeSets.pendingOutbox({ before: at(1), limit: 10 })).map((c) => c.id)).to.deep.equal([
        record.id,
      ]);
      await store.changeSets.clearOutbox(ORG_A, record.id, [event.id]);
      expect(await store.changeSets.pendingOutbox({ before: at(1), limit: 10 })).to.deep.equal([]);
      const { outbox: _outbox, outboxAt: _outboxAt, ...rest } = record;
      expect(await store.changeSets.get(ORG_A, record.registrationId, record.id)).to.deep.equal(rest);
    });
  });
}
