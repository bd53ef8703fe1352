import { expect } from 'chai';
import { runScan } from '../../../../scanner/engine.js';
import type { ScanKind } from '../../../../scanner/scan-result.js';
import { json, startTarget, type Target } from '../../../fixtures/targets/start-target.js';
import { curlOperation, lines, loaded, probe } from '../support/engine-fixture.js';

describe('gate scanKinds', () => {
  let target: Target;
  before(async () => (target = await startTarget((_req, res) => json(res, 200, {}))));
  after(() => target.close());

  const scan = (kind: ScanKind, ...checks: Parameters<typeof probe>[]) =>
    runScan({
      kind,
      operations: [curlOperation(target.url('/items'))],
      checks: checks.map((c) => loaded(probe(...c))),
    });

  it('leaves a check out of the report in a kind of scan it does not list, and skips its dependents with that reason', async () => {
    const outcome = await scan(
      'curl',
      ['t.discover', { scanKinds: ['discover'] }],
      ['t.dependent', { dependsOn: ['t.discover'] }],
    );
    expect(lines(outcome.results)).to.deep.equal([
      't.dependent GET /items skipped: dependency t.discover skipped: does not run in curl scans',
    ]);
  });

  it('runs a check that lists no scan kinds in curl, openapi and graphql scans, and not in discover scans', async () => {
    for (const kind of ['curl', 'openapi', 'graphql'] as const)
      expect(lines((await scan(kind, ['t.default'])).results), kind).to.deep.equal(['t.default GET /items passed']);
    expect((await scan('discover', ['t.default'])).results).to.deep.equal([]);
  });
});
