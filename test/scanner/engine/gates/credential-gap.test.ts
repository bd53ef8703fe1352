import { expect } from 'chai';
import { runScan } from '../../../../scanner/engine.js';
import { json, startTarget, type Target } from '../../../fixtures/targets/start-target.js';
import { operation } from '../../../checks/support/object-test-operation.js';
import { curlOperation, lines, loaded, probe } from '../support/engine-fixture.js';

describe('gate credentialGap', () => {
  let target: Target;
  before(async () => (target = await startTarget((_req, res) => json(res, 200, {}))));
  after(() => target.close());

  // auth.baseline is the credential probe: it and what depends on it send or judge the supplied credential.
  const checks = () =>
    [probe('auth.baseline'), probe('jwt.forged', { dependsOn: ['auth.baseline'] }), probe('t.public')].map(loaded);

  it('skips the credential probe, incomplete, where a declared credential was not given; checks that do not send it run', async () => {
    const declared = operation({ url: target.url('/items'), securitySchemes: ['bearerAuth'] });
    const outcome = await runScan({ kind: 'openapi', operations: [declared], checks: checks() });
    const reason = "no credential for bearerAuth: give one (--security-schemes name=value, or -H 'Authorization: …')";
    expect(lines(outcome.results)).to.deep.equal([
      `auth.baseline GET /items skipped: ${reason} (incomplete)`,
      `jwt.forged GET /items skipped: dependency auth.baseline skipped: ${reason} (incomplete)`,
      't.public GET /items passed',
    ]);
  });

  it('skips them where the credential given is empty', async () => {
    const empty = curlOperation(target.url('/items'), { headers: ['Authorization: Bearer '] });
    const outcome = await runScan({ kind: 'curl', operations: [empty], checks: checks() });
    expect(lines(outcome.results)[0]).to.match(/^auth\.baseline GET \/items skipped: the Authorization value is empty/);
    expect(outcome.results.map((r) => r.status)).to.deep.equal(['skipped', 'skipped', 'passed']);
  });
});
