import { expect } from 'chai';
import { runScan } from '../../../../scanner/engine.js';
import { bearerOf, json, startTarget, type Target } from '../../../fixtures/targets/start-target.js';
import { curlOperation, lines, loaded, probe } from '../support/engine-fixture.js';

describe('gate canaryLost', () => {
  let target: Target;
  // The credential works once, then stops (a token revoked under the scan).
  let uses = 0;
  before(
    async () =>
      (target = await startTarget((req, res) => {
        const good = bearerOf(req) === 'good' && (uses += 1) === 1;
        json(res, good ? 200 : 401, {});
      })),
  );
  after(() => target.close());

  it('starts no check on an operation carrying the credential once the canary saw it stop working', async () => {
    // The operation sent as given answers 200, then 401; b.later depends on it, so it reaches the gate after the loss.
    const revoker = probe('a.revoker', {
      async run(ctx) {
        await ctx.http.send();
        await ctx.http.send();
      },
    });
    const outcome = await runScan({
      kind: 'curl',
      operations: [
        curlOperation(target.url('/items'), { headers: ['Authorization: Bearer good'] }),
        curlOperation(target.url('/public')),
      ],
      checks: [revoker, probe('b.later', { dependsOn: ['a.revoker'] })].map(loaded),
      concurrency: 1,
      canaryEvery: 100,
    });
    expect(lines(outcome.results)).to.deep.equal([
      'a.revoker GET /items passed',
      'a.revoker GET /public passed',
      'b.later GET /items skipped: identity canary: the supplied credential stopped working after 2 requests (GET /items answered 401, 200 before) (incomplete)',
      'b.later GET /public passed',
    ]);
  });
});
