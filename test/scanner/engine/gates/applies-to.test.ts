import { expect } from 'chai';
import { runScan } from '../../../../scanner/engine.js';
import { json, startTarget, type Target } from '../../../fixtures/targets/start-target.js';
import { curlOperation, lines, loaded, probe } from '../support/engine-fixture.js';

describe('gate appliesTo', () => {
  let target: Target;
  before(async () => (target = await startTarget((_req, res) => json(res, 200, {}))));
  after(() => target.close());

  const operations = () => [
    curlOperation(target.url('/items')),
    curlOperation(target.url('/items'), { method: 'POST' }),
  ];

  it('runs a check where appliesTo answers true, and skips it with the reason it gives elsewhere', async () => {
    const check = probe('t.reads', { appliesTo: (op) => (op.method === 'GET' ? true : 'reads only') });
    const outcome = await runScan({ kind: 'curl', operations: operations(), checks: [loaded(check)] });
    expect(lines(outcome.results)).to.deep.equal([
      't.reads GET /items passed',
      't.reads POST /items skipped: reads only',
    ]);
  });

  it('errors a check whose appliesTo throws, never passing or skipping it', async () => {
    const check = probe('t.broken', {
      appliesTo: () => {
        throw new Error('no method');
      },
    });
    const outcome = await runScan({ kind: 'curl', operations: operations(), checks: [loaded(check)] });
    expect(lines(outcome.results)).to.deep.equal([
      't.broken GET /items errored: appliesTo threw: no method',
      't.broken POST /items errored: appliesTo threw: no method',
    ]);
  });
});
