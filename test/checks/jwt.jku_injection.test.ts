import { scanTarget } from '../support/scan.js';
import { followsJku, rs256Signer, startJwtTarget } from '../fixtures/targets/jwt-target.js';
import type { Target } from '../fixtures/targets/start-target.js';
import { bearer, expectResult } from './expect-result.js';

const ID = 'jwt.jku_injection';

describe('jwt.jku_injection', () => {
  let target: Target | undefined;
  afterEach(async () => target?.close());

  it('fails with broken_authentication.jku_injection (9.3) when the target fetches and trusts the jku the scanner serves', async () => {
    const signer = await rs256Signer();
    target = await startJwtTarget(followsJku(signer.verify));
    const outcome = await scanTarget(target.url('/me'), { checks: [ID], headers: bearer(await signer.token()) });
    expectResult(outcome, ID, {
      status: 'failed',
      issues: { 'broken_authentication.jku_injection': 9.3 },
      requests: 1,
    });
  });

  it('passes with one request against a server that verifies RS256 with its own key (jose)', async () => {
    const signer = await rs256Signer();
    target = await startJwtTarget(signer.verify);
    const outcome = await scanTarget(target.url('/me'), { checks: [ID], headers: bearer(await signer.token()) });
    expectResult(outcome, ID, { status: 'passed', requests: 1 });
  });
});
