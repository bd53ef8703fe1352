/** The repository contract (docs/architecture.md §1.9) of idempotency-Key records: one claim, in flight, mismatch, scope, expiry and lapsed leases, release. */
import { expect } from 'chai';
import type {
  BeginInput,
  BeginOutcome,
  ClaimHandle,
  IdempotencyScope,
  StoredResponse,
} from '../../../server/components/idempotency/idempotency.repository.js';
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

    /**
     * The store's calls as the Idempotency-Key middleware makes them: a request that claimed a key completes or
     * releases it with the handle `begin` gave it (here the latest claim's, unless the test names one).
     */
    let latest: ClaimHandle;
    const idempotency = {
      /** The outcome without the handle (kept as `latest`), so outcomes compare as values. */
      async begin(input: BeginInput): Promise<Exclude<BeginOutcome, { outcome: 'started' }> | { outcome: 'started' }> {
        const outcome = await store.idempotency.begin(input);
        if (outcome.outcome !== 'started') return outcome;
        latest = outcome.claim;
        return { outcome: 'started' };
      },
      complete: (input: IdempotencyScope & { response: StoredResponse }, claim: ClaimHandle = latest) =>
        store.idempotency.complete({ ...input, claim }),
      release: (input: IdempotencyScope, claim: ClaimHandle = latest) => store.idempotency.release({ ...input, claim }),
    };

    it('claims a key once, reports it in flight, then replays the stored response', async () => {
      expect(await idempotency.begin({ ...scope, ...timing, fingerprint: 'f1', now: T0 })).to.deep.equal({
        outcome: 'started',
      });
      expect(await idempotency.begin({ ...scope, ...timing, fingerprint: 'f1', now: at(1) })).to.deep.equal({
        outcome: 'in_flight',
      });
      await idempotency.complete({ ...scope, response });
      expect(await idempotency.begin({ ...scope, ...timing, fingerprint: 'f1', now: at(2) })).to.deep.equal({
        outcome: 'completed',
        response,
      });
    });

    it('gives a key to exactly one of several concurrent claims', async () => {
      const outcomes = await Promise.all(
        Array.from({ length: 5 }, () => idempotency.begin({ ...scope, ...timing, fingerprint: 'f1', now: T0 })),
      );
      expect(outcomes.filter((o) => o.outcome === 'started')).to.have.length(1);
      expect(outcomes.filter((o) => o.outcome === 'in_flight')).to.have.length(4);
    });

    it('reports a different fingerprint as a mismatch, in flight or done', async () => {
      await idempotency.begin({ ...scope, ...timing, fingerprint: 'f1', now: T0 });
      expect(await idempotency.begin({ ...scope, ...timing, fingerprint: 'f2', now: at(1) })).to.deep.equal({
        outcome: 'mismatch',
      });
      await idempotency.complete({ ...scope, response });
      expect(await idempotency.begin({ ...scope, ...timing, fingerprint: 'f2', now: at(2) })).to.deep.equal({
        outcome: 'mismatch',
      });
    });

    it('scopes keys to subject and organization', async () => {
      await idempotency.begin({ ...scope, ...timing, fingerprint: 'f1', now: T0 });
      await idempotency.complete({ ...scope, response });
      expect(
        await idempotency.begin({ ...scope, subject: 'mallory', ...timing, fingerprint: 'f1', now: at(1) }),
      ).to.deep.equal({ outcome: 'started' });
      expect(
        await idempotency.begin({ ...scope, organizationId: ORG_B, ...timing, fingerprint: 'f1', now: at(1) }),
      ).to.deep.equal({ outcome: 'started' });
    });

    it('forgets a record after its expiry; a dead claim is taken over after its lease by the same request only', async () => {
      await idempotency.begin({ ...scope, ...timing, fingerprint: 'f2', now: T0 });
      // The first attempt may have created something: another request under the key stays a mismatch.
      expect(await idempotency.begin({ ...scope, ...timing, fingerprint: 'f1', now: at(61) })).to.deep.equal({
        outcome: 'mismatch',
      });
      expect(await idempotency.begin({ ...scope, ...timing, fingerprint: 'f2', now: at(61) })).to.deep.equal({
        outcome: 'started',
      });
      expect(await idempotency.begin({ ...scope, ...timing, fingerprint: 'f2', now: at(62) })).to.deep.equal({
        outcome: 'in_flight',
      });
      await idempotency.complete({ ...scope, response });
      expect((await idempotency.begin({ ...scope, ...timing, fingerprint: 'f2', now: at(86_000) })).outcome).to.equal(
        'completed',
      );
      expect(await idempotency.begin({ ...scope, ...timing, fingerprint: 'f3', now: at(61 + 86_400) })).to.deep.equal({
        outcome: 'started',
      });
    });

    it('takes over at once a claim whose holder is known to be over, for the same request only, never a completed one', async () => {
      const over = (holder: string) => holder === 'first';
      await idempotency.begin({ ...scope, ...timing, fingerprint: 'f1', now: T0, holder: 'first' });
      // Not known to be over: in flight until the lease ends.
      expect(
        await idempotency.begin({ ...scope, ...timing, fingerprint: 'f1', now: at(1), holder: 'second' }),
      ).to.deep.equal({ outcome: 'in_flight' });
      // Over, but another request under the key: the first may have created something.
      expect(
        await idempotency.begin({ ...scope, ...timing, fingerprint: 'f2', now: at(1), abandoned: over }),
      ).to.deep.equal({ outcome: 'mismatch' });
      expect(
        await idempotency.begin({
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
        await idempotency.begin({ ...scope, ...timing, fingerprint: 'f1', now: at(3), abandoned: over }),
      ).to.deep.equal({ outcome: 'in_flight' });
      await idempotency.complete({ ...scope, response });
      expect(
        (
          await idempotency.begin({
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
      await idempotency.begin({ ...scope, ...timing, fingerprint: 'f1', now: T0 });
      await idempotency.release(scope);
      expect(await idempotency.begin({ ...scope, ...timing, fingerprint: 'f2', now: at(1) })).to.deep.equal({
        outcome: 'started',
      });
      await idempotency.complete({ ...scope, response });
      await idempotency.release(scope);
      expect((await idempotency.begin({ ...scope, ...timing, fingerprint: 'f2', now: at(2) })).outcome).to.equal(
        'completed',
      );
    });

    it('lets only the current holder of a claim taken over complete or release it', async () => {
      await idempotency.begin({ ...scope, ...timing, fingerprint: 'f1', now: T0 });
      const first = latest;
      // The first attempt's lease lapsed: its retry takes the claim over.
      expect(await idempotency.begin({ ...scope, ...timing, fingerprint: 'f1', now: at(61) })).to.deep.equal({
        outcome: 'started',
      });
      const second = latest;
      // The first attempt ends late, failing: the retry's claim stays.
      await idempotency.release(scope, first);
      expect((await idempotency.begin({ ...scope, ...timing, fingerprint: 'f1', now: at(62) })).outcome).to.equal(
        'in_flight',
      );
      // …or succeeding: its answer is not the retry's.
      await idempotency.complete({ ...scope, response: { ...response, body: { id: 'reg_stale' } } }, first);
      expect((await idempotency.begin({ ...scope, ...timing, fingerprint: 'f1', now: at(63) })).outcome).to.equal(
        'in_flight',
      );
      await idempotency.complete({ ...scope, response }, second);
      expect(await idempotency.begin({ ...scope, ...timing, fingerprint: 'f1', now: at(64) })).to.deep.equal({
        outcome: 'completed',
        response,
      });
    });
  });
}
