/**
 * The embedded registration repository at scale: an organization's list, count, quota check and review queue read
 * that organization's records only, however many other organizations hold (bench/service-scale.ts measured a
 * 3-registration organization's list at 25–70 ms beside 100,000 others when they were all walked). What it checks
 * is the work, not its time: the records the repository iterates while answering, counted at `Map.prototype.values`.
 */
import { expect } from 'chai';
import { createMemoryRegistrationRepository } from '../../../../server/components/registrations/registrations.repository.js';
import { aRegistration, ORG_A, ORG_B } from '../../contract/fixtures.js';

const LARGE = 2000;

/** Runs `work` and counts the values every Map it iterates through `values()` hands out meanwhile. */
async function valuesIterated(work: () => Promise<unknown>): Promise<number> {
  const descriptor = Object.getOwnPropertyDescriptor(Map.prototype, 'values') as PropertyDescriptor;
  const original = descriptor.value as (this: Map<unknown, unknown>) => MapIterator<unknown>;
  let count = 0;
  Map.prototype.values = function counted<K, V>(this: Map<K, V>) {
    const iterator = original.call(this) as MapIterator<V>;
    return {
      next() {
        const step = iterator.next();
        if (!step.done) count += 1;
        return step;
      },
      [Symbol.iterator]() {
        return this;
      },
    } as MapIterator<V>;
  };
  try {
    await work();
  } finally {
    Object.defineProperty(Map.prototype, 'values', descriptor);
  }
  return count;
}

describe('the embedded registration repository', () => {
  async function twoOrganizations() {
    const repository = createMemoryRegistrationRepository();
    for (let i = 0; i < LARGE; i += 1) await repository.upsert(aRegistration({ organizationId: ORG_A }));
    const small = [
      aRegistration({ organizationId: ORG_B }),
      aRegistration({ organizationId: ORG_B, status: 'pending_review' }),
      aRegistration({ organizationId: ORG_B }),
    ];
    for (const record of small) await repository.upsert(record);
    return { repository, small };
  }

  it("lists, counts and checks the quota of a small organization without walking a large one's records", async () => {
    const { repository, small } = await twoOrganizations();
    let listed: unknown[] = [];
    let counted = 0;
    const iterated = await valuesIterated(async () => {
      listed = await repository.list({ organizationId: ORG_B, limit: 10 });
      counted = await repository.count(ORG_B);
      await repository.create(aRegistration({ organizationId: ORG_B }), { maxInOrganization: 5 });
      await repository.listAwaitingReview({ organizationId: ORG_B, limit: 10 });
    });
    expect(listed).to.have.length(small.length);
    expect(counted).to.equal(small.length);
    expect(iterated, 'records iterated for four reads of a 3-registration organization').to.be.below(50);
  });

  it('keeps every organization to its own records as they are created, removed and delivered', async () => {
    const { repository, small } = await twoOrganizations();
    expect(await repository.count(ORG_A)).to.equal(LARGE);
    const [first] = small;
    const removed = await repository.delete({ organizationId: ORG_B, id: first.id }, new Date(), [
      { id: 'evt_1', kind: 'audit', entry: {} },
    ] as never);
    expect(removed.ok).to.equal(true);
    // A tombstone holding undelivered events is invisible to the organization's reads, and gone once delivered.
    expect(await repository.count(ORG_B)).to.equal(small.length - 1);
    await repository.clearOutbox(ORG_B, first.id, ['evt_1']);
    expect((await repository.list({ organizationId: ORG_B, limit: 10 })).map((r) => r.id)).to.not.include(first.id);
    expect(await repository.count(ORG_A)).to.equal(LARGE);
  });
});
