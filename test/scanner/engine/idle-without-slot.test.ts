import { expect } from 'chai';
import { setTimeout as delay } from 'node:timers/promises';
import { runScan } from '../../../scanner/engine.js';
import { json, startTarget, type Target } from '../../fixtures/targets/start-target.js';
import { curlOperation, loaded, probe } from './support/engine-fixture.js';

describe('ctx.idle (a check waiting on something outside its requests)', () => {
  let target: Target;
  const order: string[] = [];
  before(
    async () =>
      (target = await startTarget((req, res) => {
        order.push(String(req.headers['x-check']));
        json(res, 200, {});
      })),
  );
  after(() => target.close());
  beforeEach(() => (order.length = 0));

  const sender = (id: string) =>
    probe(id, {
      async run(ctx) {
        await ctx.http.send({ headers: { 'x-check': id } });
      },
    });

  it('gives its slot back while it waits: at --concurrency 1 the other checks send meanwhile', async () => {
    const waiter = probe('a.waiter', {
      async run(ctx) {
        await ctx.http.send({ headers: { 'x-check': 'a.waiter before' } });
        await ctx.idle(delay(300));
        await ctx.http.send({ headers: { 'x-check': 'a.waiter after' } });
      },
    });
    const outcome = await runScan({
      kind: 'curl',
      operations: [curlOperation(target.url('/items'))],
      checks: [loaded(waiter), loaded(sender('b.sender')), loaded(sender('c.sender'))],
      concurrency: 1,
    });
    expect(outcome.results.map((r) => r.status)).to.deep.equal(['passed', 'passed', 'passed']);
    expect(order).to.deep.equal(['a.waiter before', 'b.sender', 'c.sender', 'a.waiter after']);
  });

  it('resumes before the checks that have not started', async () => {
    // b.slow holds the only slot while a.waiter's wait ends; c and d are still queued behind it.
    const waiter = probe('a.waiter', {
      async run(ctx) {
        await ctx.idle(delay(50));
        await ctx.http.send({ headers: { 'x-check': 'a.waiter after' } });
      },
    });
    const slow = probe('b.slow', {
      async run(ctx) {
        await delay(200);
        await ctx.http.send({ headers: { 'x-check': 'b.slow' } });
      },
    });
    await runScan({
      kind: 'curl',
      operations: [curlOperation(target.url('/items'))],
      checks: [loaded(waiter), loaded(slow), loaded(sender('c.sender')), loaded(sender('d.sender'))],
      concurrency: 1,
    });
    expect(order).to.deep.equal(['b.slow', 'a.waiter after', 'c.sender', 'd.sender']);
  });

  it('does not count the time it queues for its slot again against its own time budget', async () => {
    // a.waiter may run 300 ms; b.slow takes the slot for 600 ms while a.waiter's 50 ms wait ends.
    const waiter = probe('a.waiter', {
      timeoutMs: 300,
      async run(ctx) {
        await ctx.idle(delay(50));
        await ctx.http.send({ headers: { 'x-check': 'a.waiter after' } });
      },
    });
    const slow = probe('b.slow', {
      async run(ctx) {
        await delay(600);
        await ctx.http.send({ headers: { 'x-check': 'b.slow' } });
      },
    });
    const outcome = await runScan({
      kind: 'curl',
      operations: [curlOperation(target.url('/items'))],
      checks: [loaded(waiter), loaded(slow)],
      concurrency: 1,
    });
    expect(outcome.results.map((r) => [r.checkId, r.status, r.reason])).to.deep.equal([
      ['a.waiter', 'passed', undefined],
      ['b.slow', 'passed', undefined],
    ]);
  });

  it('takes no slot again when the check timed out during the wait: the checks queued behind it still run', async () => {
    // a.stuck times out at 100 ms and its wait ends at 200 ms, while b.slow holds the only slot until 300 ms: a slot
    // taken back then would go to a.stuck ahead of c.sender, and never be released.
    const stuck = probe('a.stuck', {
      timeoutMs: 100,
      async run(ctx) {
        await ctx.idle(delay(200));
      },
    });
    const slow = probe('b.slow', {
      async run(ctx) {
        await delay(300);
        await ctx.http.send({ headers: { 'x-check': 'b.slow' } });
      },
    });
    const scan = runScan({
      kind: 'curl',
      operations: [curlOperation(target.url('/items'))],
      checks: [loaded(stuck), loaded(slow), loaded(sender('c.sender'))],
      concurrency: 1,
    });
    const outcome = await Promise.race([scan, delay(3000).then(() => undefined)]);
    expect(outcome?.results.map((r) => [r.checkId, r.status])).to.deep.equal([
      ['a.stuck', 'errored'],
      ['b.slow', 'passed'],
      ['c.sender', 'passed'],
    ]);
  });
});
