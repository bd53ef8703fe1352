import { expect } from 'chai';
import { runScan } from '../../../../scanner/engine.js';
import { json, startTarget, type Target } from '../../../fixtures/targets/start-target.js';
import { curlOperation, loaded, probe } from '../support/engine-fixture.js';

describe('gate passive', () => {
  let target: Target;
  before(
    async () =>
      (target = await startTarget(async (req, res) => {
        await new Promise((resolve) => setTimeout(resolve, 10));
        json(res, 200, { header: req.headers['x-check'] });
      })),
  );
  after(() => target.close());

  const sender = (id: string, extra: Parameters<typeof probe>[1] = {}) =>
    probe(id, {
      async run(ctx) {
        await ctx.http.send({ headers: { 'x-check': id } });
      },
      ...extra,
    });
  const observer = (id: string) =>
    probe(id, {
      passive: true,
      async run(ctx) {
        ctx.setFact(
          'observed',
          ctx.observed().map((e) => e.checkId),
        );
      },
    });

  it('starts once every other check on the operation finished, once-per-scan and runsLast ones included', async () => {
    // Scheduled first (ids sort before the senders'): only the gate makes it wait.
    const outcome = await runScan({
      kind: 'curl',
      operations: [curlOperation(target.url('/items'))],
      checks: [
        observer('a.observer'),
        sender('b.sender'),
        sender('c.once', { oncePerScan: true }),
        sender('d.last', { runsLast: true }),
      ].map(loaded),
    });
    const observed = outcome.results.find((r) => r.checkId === 'a.observer')?.data?.observed as string[];
    expect([...observed].sort()).to.deep.equal(['b.sender', 'c.once', 'd.last']);
  });

  it('does not wait for a check that depends on a passive one through another check', async () => {
    const outcome = await runScan({
      kind: 'curl',
      operations: [curlOperation(target.url('/items'))],
      checks: [
        observer('a.observer'),
        sender('b.middle', { dependsOn: ['a.observer'] }),
        sender('c.after', { dependsOn: ['b.middle'] }),
      ].map(loaded),
    });
    expect(outcome.results.map((r) => [r.checkId, r.status])).to.deep.equal([
      ['a.observer', 'passed'],
      ['b.middle', 'passed'],
      ['c.after', 'passed'],
    ]);
  });

  it('does not wait for a check that depends on a passive one (it waits for the passive check)', async () => {
    const outcome = await runScan({
      kind: 'curl',
      operations: [curlOperation(target.url('/items'))],
      checks: [observer('a.observer'), sender('b.after', { dependsOn: ['a.observer'] })].map(loaded),
    });
    expect(outcome.results.map((r) => [r.checkId, r.status, r.data])).to.deep.equal([
      ['a.observer', 'passed', { observed: [] }],
      ['b.after', 'passed', undefined],
    ]);
  });
});
