import { expect } from 'chai';
import { runScan } from '../../../scanner/engine.js';
import { json, startTarget, type Target } from '../../fixtures/targets/start-target.js';
import { curlOperation, loaded, probe } from './support/engine-fixture.js';

describe('ctx.http.answerAsGiven (a check that only reads the answer)', () => {
  let target: Target;
  let created = 0;
  before(
    async () =>
      (target = await startTarget((req, res) => {
        if (req.method === 'POST') created += 1;
        json(res, req.method === 'POST' ? 201 : 200, { n: created }, { 'x-served': String(created) });
      })),
  );
  after(() => target.close());
  beforeEach(() => (created = 0));

  const asGiven = (id: string) =>
    probe(id, {
      async run(ctx) {
        ctx.setFact('served', (await ctx.http.send()).headers['x-served']);
      },
    });
  const reader = (id: string) =>
    probe(id, {
      dependsOn: ['a.writer'],
      async run(ctx) {
        ctx.setFact('served', (await ctx.http.answerAsGiven()).headers['x-served']);
      },
    });

  it('reuses the answer another check had to a write as given, where send() writes again', async () => {
    const outcome = await runScan({
      kind: 'curl',
      operations: [curlOperation(target.url('/items'), { method: 'POST' })],
      checks: [loaded(asGiven('a.writer')), loaded(reader('b.reader')), loaded(reader('c.reader'))],
      concurrency: 1,
    });
    expect(outcome.results.map((r) => [r.checkId, r.status, r.data])).to.deep.equal([
      ['a.writer', 'passed', { served: '1' }],
      ['b.reader', 'passed', { served: '1' }],
      ['c.reader', 'passed', { served: '1' }],
    ]);
    expect(created).to.equal(1);
    // Each reader's report still carries the exchange it judged.
    expect(outcome.results[1].attempts.map((a) => a.response?.status)).to.deep.equal([201]);

    const again = await runScan({
      kind: 'curl',
      operations: [curlOperation(target.url('/items'), { method: 'POST' })],
      checks: [loaded(asGiven('a.writer')), loaded(asGiven('b.writer'))],
      concurrency: 1,
    });
    expect(again.requestsSent).to.equal(2);
  });

  it('sends the request as given when no check had its answer yet, and shares it in turn', async () => {
    const outcome = await runScan({
      kind: 'curl',
      operations: [curlOperation(target.url('/items'), { method: 'POST' })],
      checks: [loaded(probe('a.writer')), loaded(reader('b.reader')), loaded(reader('c.reader'))],
      concurrency: 1,
    });
    expect(outcome.results.slice(1).map((r) => r.data)).to.deep.equal([{ served: '1' }, { served: '1' }]);
    expect(created).to.equal(1);
  });
});
