import { expect } from 'chai';
import { runScan } from '../../../../scanner/engine.js';
import { json, startTarget, type Target } from '../../../fixtures/targets/start-target.js';
import { curlOperation, lines, loaded, probe } from '../support/engine-fixture.js';

describe('gate interrupted', () => {
  let target: Target;
  before(async () => (target = await startTarget((_req, res) => json(res, 200, {}))));
  after(() => target.close());

  it('starts no check once the scan is interrupted: those queued for a slot are skipped, nothing is sent', async () => {
    const controller = new AbortController();
    const interrupting = probe('t.first', {
      async run() {
        controller.abort(new Error('interrupted'));
      },
    });
    const queued = ['t.second', 't.third'].map((id) =>
      probe(id, {
        async run(ctx) {
          await ctx.http.send();
        },
      }),
    );
    const outcome = await runScan({
      kind: 'curl',
      operations: [curlOperation(target.url('/items'))],
      checks: [interrupting, ...queued].map(loaded),
      concurrency: 1,
      signal: controller.signal,
    });
    expect(lines(outcome.results)).to.deep.equal([
      't.first GET /items passed',
      't.second GET /items skipped: the scan was interrupted before this check ran',
      't.third GET /items skipped: the scan was interrupted before this check ran',
    ]);
    expect(target.requests()).to.equal(0);
  });
});
