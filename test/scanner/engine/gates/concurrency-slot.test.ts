import { expect } from 'chai';
import { runScan } from '../../../../scanner/engine.js';
import { json, startTarget, type Target } from '../../../fixtures/targets/start-target.js';
import { curlOperation, loaded, probe } from '../support/engine-fixture.js';

describe('gate concurrencySlot', () => {
  let target: Target;
  let inFlight = 0;
  let maxInFlight = 0;
  before(
    async () =>
      (target = await startTarget(async (_req, res) => {
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 20));
        inFlight -= 1;
        json(res, 200, {});
      })),
  );
  after(() => target.close());
  beforeEach(() => (maxInFlight = 0));

  const sender = (id: string, extra: Parameters<typeof probe>[1] = {}) =>
    probe(id, {
      async run(ctx) {
        await ctx.http.send({ headers: { 'x-check': id } });
      },
      ...extra,
    });

  it('runs no more checks at once than --concurrency', async () => {
    const outcome = await runScan({
      kind: 'curl',
      operations: [curlOperation(target.url('/items'))],
      checks: ['t.a', 't.b', 't.c', 't.d'].map((id) => loaded(sender(id))),
      concurrency: 2,
      rate: { count: 1000, perMs: 1000 },
    });
    expect(outcome.requestsSent).to.equal(4);
    expect(maxInFlight).to.equal(2);
  });

  it('is taken after every wait: at --concurrency 1, checks waiting for the others hold no slot they need', async () => {
    // Scheduled before the sender, the passive and runsLast checks would each hold the only slot while waiting for it.
    const outcome = await runScan({
      kind: 'curl',
      operations: [curlOperation(target.url('/items'))],
      checks: [
        loaded(probe('a.passive', { passive: true })),
        loaded(sender('b.last', { runsLast: true })),
        loaded(sender('c.sender')),
      ],
      concurrency: 1,
    });
    expect(outcome.results.map((r) => [r.checkId, r.status])).to.deep.equal([
      ['a.passive', 'passed'],
      ['b.last', 'passed'],
      ['c.sender', 'passed'],
    ]);
  });
});
