import { scanTarget } from '../support/scan.js';
import {
  acceptsZeroEcdsa,
  asymmetricSigner,
  hs256Token,
  startJwtTarget,
  verifiesHs256,
} from '../fixtures/targets/jwt-target.js';
import type { Target } from '../fixtures/targets/start-target.js';
import { bearer, expectResult } from './expect-result.js';

const ID = 'jwt.psychic_signature';

describe('jwt.psychic_signature', () => {
  let target: Target | undefined;
  afterEach(async () => target?.close());

  it('fails with broken_authentication.psychic_signature (9.3) when an ES256 signature of zeros is accepted', async () => {
    const signer = await asymmetricSigner('ES256');
    target = await startJwtTarget(acceptsZeroEcdsa(signer.verify));
    const outcome = await scanTarget(target.url('/me'), { checks: [ID], headers: bearer(await signer.token()) });
    expectResult(outcome, ID, {
      status: 'failed',
      issues: { 'broken_authentication.psychic_signature': 9.3 },
      requests: 1,
    });
  });

  it('passes with one request against a server that verifies ES384 with jose (node rejects r = s = 0)', async () => {
    const signer = await asymmetricSigner('ES384');
    target = await startJwtTarget(signer.verify);
    const outcome = await scanTarget(target.url('/me'), { checks: [ID], headers: bearer(await signer.token()) });
    expectResult(outcome, ID, { status: 'passed', requests: 1 });
  });

  it('is skipped for a non-ECDSA token', async () => {
    target = await startJwtTarget(verifiesHs256('s3cr3t-but-long-enough-0123456789'));
    const outcome = await scanTarget(target.url('/me'), {
      checks: [ID],
      headers: bearer(hs256Token('s3cr3t-but-long-enough-0123456789')),
    });
    expectResult(outcome, ID, { status: 'skipped', reason: /ES256/, requests: 0 });
  });
});
