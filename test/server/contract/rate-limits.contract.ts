/** The repository contract (docs/architecture.md §1.9) of rate-limit counters: up to the limit within a window, per key. */
import { expect } from 'chai';
import type { Store } from '../../../server/deps.js';

export function rateLimitsContract(implementation: string, makeStore: () => Promise<Store>): void {
  describe(`rate-limit counters repository contract: ${implementation}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close();
    });

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
}
