import { scanTarget } from '../support/scan.js';
import { acceptsNullSignature, hs256Token, rs256Signer, startJwtTarget } from '../fixtures/targets/jwt-target.js';
import type { Target } from '../fixtures/targets/start-target.js';
import { bearer, expectResult } from './expect-result.js';

const SECRET = 'a-long-random-secret-for-tests-0123456789';
const ID = 'jwt.null_signature';

describe('jwt.null_signature', () => {
  let target: Target | undefined;
  afterEach(async () => target?.close());

  it('fails with broken_authentication.null_signature (9.3) when the token without signature is accepted', async () => {
    target = await startJwtTarget(acceptsNullSignature(SECRET));
    const outcome = await scanTarget(target.url('/me'), { checks: [ID], headers: bearer(hs256Token(SECRET)) });
    expectResult(outcome, ID, {
      status: 'failed',
      issues: { 'broken_authentication.null_signature': 9.3 },
      requests: 1,
    });
  });

  it('passes with one request against a server that verifies RS256 with jose', async () => {
    const signer = await rs256Signer();
    target = await startJwtTarget(signer.verify);
    const outcome = await scanTarget(target.url('/me'), { checks: [ID], headers: bearer(await signer.token()) });
    expectResult(outcome, ID, { status: 'passed', requests: 1 });
  });
});
