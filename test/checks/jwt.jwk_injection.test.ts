import { scanTarget } from '../support/scan.js';
import { asymmetricSigner, rs256Signer, startJwtTarget, trustsEmbeddedJwk } from '../fixtures/targets/jwt-target.js';
import type { Target } from '../fixtures/targets/start-target.js';
import { bearer, expectResult } from './expect-result.js';

const ID = 'jwt.jwk_injection';

describe('jwt.jwk_injection', () => {
  let target: Target | undefined;
  afterEach(async () => target?.close());

  it('fails with broken_authentication.jwk_injection (9.3) when the server verifies with the jwk the token carries', async () => {
    const signer = await asymmetricSigner('ES256');
    target = await startJwtTarget(trustsEmbeddedJwk(signer.verify));
    const outcome = await scanTarget(target.url('/me'), { checks: [ID], headers: bearer(await signer.token()) });
    expectResult(outcome, ID, {
      status: 'failed',
      issues: { 'broken_authentication.jwk_injection': 9.3 },
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
