import { expect } from 'chai';
import { runScan } from '../../../../scanner/engine.js';
import { json, startTarget, type Target } from '../../../fixtures/targets/start-target.js';
import { curlOperation, lines, loaded, probe } from '../support/engine-fixture.js';

describe('gate repeatsRequests', () => {
  let target: Target;
  before(async () => (target = await startTarget((_req, res) => json(res, 200, {}))));
  after(() => target.close());

  it('runs a check that repeats requests on read operations only, whatever its appliesTo says', async () => {
    const burst = probe('t.burst', {
      repeatsRequests: true,
      appliesTo: (op) => (op.method === 'DELETE' ? 'not on deletes' : true),
    });
    const outcome = await runScan({
      kind: 'curl',
      operations: [
        curlOperation(target.url('/items')),
        curlOperation(target.url('/items'), { method: 'POST' }),
        curlOperation(target.url('/items/1'), { method: 'DELETE' }),
      ],
      checks: [loaded(burst)],
    });
    expect(lines(outcome.results)).to.deep.equal([
      't.burst GET /items passed',
      't.burst POST /items skipped: repeats requests, so it runs on read operations only (POST /items is write)',
      't.burst DELETE /items/1 skipped: repeats requests, so it runs on read operations only (DELETE /items/1 is destructive)',
    ]);
  });
});
