/** The repository contract (DESIGN.md §1.9) of idempotency-Key records: one claim, in flight, mismatch, scope, expiry and lapsed leases, release. */
import { expect } from 'chai';
import type { Store } from '../../../server/deps.js';
import { ORG_A, ORG_B, T0, at } from './fixtures.js';

export function idempotencyContract(implementation: string, makeStore: () => Promise<Store>): void {
  describe(`idempotency records repository contract: ${implementation}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close();
    });

    const scope = { organizationId: ORG_A, subject: 'alice', key: 'key-00000001' };
    const timing = { leaseMs: 60_000, ttlMs: 86_400_000 };
    const response = { status: 201, headers: { location: 'https://x.example/r/1' }, body: { id: 'reg_1' } };

    it('claims a key once, reports it in flight, then replays the stored response', async () => {
      expect(await store.idempotency.begin({ ...scope, ...timing, fingerprint: 'f1', now: T0 })).to.deep.equal({
        outcome: 'started',
      });
      expect(await store.idempotency.begin({ ...scope, ...timing, fingerprint: 'f1', now: at(1) })).to.deep.equal({
        outcome: 'in_flight',
      });
      await store.idempotency.complete({ ...scope, response });
      expect(await store.idempotency.begin({ ...scope, ...timing, fingerprint: 'f1', now: at(2) })).to.deep.equal({
        outcome: 'completed',
        response,
      });
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
      expect(await store.idempotency.begin({ ...scope, ...timing, fingerprint: 'f2', now: at(1) })).to.deep.equal({
        outcome: 'mismatch',
      });
      await store.idempotency.complete({ ...scope, response });
      expect(await store.idempotency.begin({ ...scope, ...timing, fingerprint: 'f2', now: at(2) })).to.deep.equal({
        outcome: 'mismatch',
      });
    });

    it('scopes keys to subject and organization', async () => {
      await store.idempotency.begin({ ...scope, ...timing, fingerprint: 'f1', now: T0 });
      await store.idempotency.complete({ ...scope, response });
      expect(
        await store.idempotency.begin({ ...scope, subject: 'mallory', ...timing, fingerprint: 'f1', now: at(1) }),
      ).to.deep.equal({ outcome: 'started' });
      expect(
        await store.idempotency.begin({ ...scope, organizationId: ORG_B, ...timing, fingerprint: 'f1', now: at(1) }),
      ).to.deep.equal({ outcome: 'started' });
    });

    it('forgets a record after its expiry; a dead claim is taken over after its lease by the same request only', async () => {
      await store.idempotency.begin({ ...scope, ...timing, fingerprint: 'f2', now: T0 });
      // The first attempt may have created something: another request under the key stays a mismatch.
      expect(await store.idempotency.begin({ ...scope, ...timing, fingerprint: 'f1', now: at(61) })).to.deep.equal({
        outcome: 'mismatch',
      });
      expect(await store.idempotency.begin({ ...scope, ...timing, fingerprint: 'f2', now: at(61) })).to.deep.equal({
        outcome: 'started',
      });
      expect(await store.idempotency.begin({ ...scope, ...timing, fingerprint: 'f2', now: at(62) })).to.deep.equal({
        outcome: 'in_flight',
      });
      await store.idempotency.complete({ ...scope, response });
      expect(
        (await store.idempotency.begin({ ...scope, ...timing, fingerprint: 'f2', now: at(86_000) })).outcome,
      ).to.equal('completed');
      expect(
        await store.idempotency.begin({ ...scope, ...timing, fingerprint: 'f3', now: at(61 + 86_400) }),
      ).to.deep.equal({ outcome: 'started' });
    });

    it('takes over at once a claim whose holder is known to be over, for the same request only, never a completed one', async () => {
      const over = (holder: string) => holder === 'first';
      await store.idempotency.begin({ ...scope, ...timing, fingerprint: 'f1', now: T0, holder: 'first' });
      // Not known to be over: in flight until the lease ends.
      expect(
        await store.idempotency.begin({ ...scope, ...timing, fingerprint: 'f1', now: at(1), holder: 'second' }),
      ).to.deep.equal({ outcome: 'in_flight' });
      // Over, but another request under the key: the first may have created something.
      expect(
        await store.idempotency.begin({ ...scope, ...timing, fingerprint: 'f2', now: at(1), abandoned: over }),
      ).to.deep.equal({ outcome: 'mismatch' });
      expect(
        await store.idempotency.begin({
          ...scope,
          ...timing,
          fingerprint: 'f1',
          now: at(2),
          holder: 'second',
          abandoned: over,
        }),
      ).to.deep.equal({ outcome: 'started' });
      // The new holder is not over: the next retry waits for it.
      expect(
        await store.idempotency.begin({ ...scope, ...timing, fingerprint: 'f1', now: at(3), abandoned: over }),
      ).to.deep.equal({ outcome: 'in_flight' });
      await store.idempotency.complete({ ...scope, response });
      expect(
        (
          await store.idempotency.begin({
            ...scope,
            ...timing,
            fingerprint: 'f1',
            now: at(4),
            abandoned: () => true,
          })
        ).outcome,
      ).to.equal('completed');
    });

    it('frees a released claim but never a completed record', async () => {
      await store.idempotency.begin({ ...scope, ...timing, fingerprint: 'f1', now: T0 });
      await store.idempotency.release(scope);
      expect(await store.idempotency.begin({ ...scope, ...timing, fingerprint: 'f2', now: at(1) })).to.deep.equal({
        outcome: 'started',
      });
      await store.idempotency.complete({ ...scope, response });
      await store.idempotency.release(scope);
      expect((await store.idempotency.begin({ ...scope, ...timing, fingerprint: 'f2', now: at(2) })).outcome).to.equal(
        'completed',
      );
    });
  });
}
