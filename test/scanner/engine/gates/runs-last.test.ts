import { expect } from 'chai';
import { runScan } from '../../../../scanner/engine.js';
import { json, startTarget, type Target } from '../../../fixtures/targets/start-target.js';
import { curlOperation, loaded, probe } from '../support/engine-fixture.js';

describe('gate runsLast', () => {
  let target: Target;
  before(async () => (target = await startTarget((_req, res) => json(res, 200, {}))));
  after(() => target.close());

  const sender = (id: string, extra: Parameters<typeof probe>[1] = {}) =>
    probe(id, {
      async run(ctx) {
        await ctx.http.send({ headers: { 'x-check': id } });
        await ctx.http.send({ headers: { 'x-check': id } });
      },
      ...extra,
    });

  it('runs after every other check on the operation, so it counts all their requests', async () => {
    // Scheduled first (ids sort before the senders'): only the gate makes it wait.
    const counter = probe('a.counter', {
      runsLast: true,
      async run(ctx) {
        ctx.setFact('sentBefore', ctx.traffic().sent);
      },
    });
    const outcome = await runScan({
      kind: 'curl',
      operations: [curlOperation(target.url('/items'))],
      checks: [counter, sender('b.one'), sender('c.two')].map(loaded),
    });
    expect(outcome.results.find((r) => r.checkId === 'a.counter')?.data).to.deep.equal({ sentBefore: 4 });
  });

  it('does not wait for a check that depends on it, directly or through another, which waits for it', async () => {
    const outcome = await runScan({
      kind: 'curl',
      operations: [curlOperation(target.url('/items'))],
      checks: [
        sender('a.last', { runsLast: true }),
        sender('b.next', { dependsOn: ['a.last'] }),
        sender('c.after', { dependsOn: ['b.next'] }),
      ].map(loaded),
    });
    expect(outcome.results.map((r) => [r.checkId, r.status])).to.deep.equal([
      ['a.last', 'passed'],
      ['b.next', 'passed'],
      ['c.after', 'passed'],
    ]);
  });

  it('does not wait for a passive check, which waits for it', async () => {
    const last = probe('t.last', {
      runsLast: true,
      async run(ctx) {
        await ctx.http.send({ headers: { 'x-check': 'last' } });
      },
    });
    const watcher = probe('t.watcher', {
      passive: true,
      async run(ctx) {
        ctx.setFact('observed', ctx.observed().length);
      },
    });
    const outcome = await runScan({
      kind: 'curl',
      operations: [curlOperation(target.url('/items'))],
      checks: [last, watcher].map(loaded),
    });
    expect(outcome.results.map((r) => [r.checkId, r.status, r.data])).to.deep.equal([
      ['t.last', 'passed', undefined],
      ['t.watcher', 'passed', { observed: 1 }],
    ]);
  });
});
