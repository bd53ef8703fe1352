import { scanTarget } from '../support/scan.js';
import { trustsX5c, rs256Signer, startJwtTarget } from '../fixtures/targets/jwt-target.js';
import type { Target } from '../fixtures/targets/start-target.js';
import { bearer, expectResult } from './expect-result.js';

const ID = 'jwt.x5c_injection';

describe('jwt.x5c_injection', () => {
  let target: Target | undefined;
  afterEach(async () => target?.close());

  it('fails with broken_authentication.x5c_injection (9.3) when the server verifies with the self-signed certificate the token carries', async () => {
    const signer = await rs256Signer();
    target = await startJwtTarget(trustsX5c(signer.verify));
    const outcome = await scanTarget(target.url('/me'), { checks: [ID], headers: bearer(await signer.token()) });
    expectResult(outcome, ID, {
      status: 'failed',
      issues: { 'broken_authentication.x5c_injection': 9.3 },
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
