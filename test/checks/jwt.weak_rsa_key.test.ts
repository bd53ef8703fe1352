import { expect } from 'chai';
import { resultOf, scanTarget } from '../support/scan.js';
import { hs256Token, rs256Signer, startJwtTarget } from '../fixtures/targets/jwt-target.js';
import { weakRsaSigner } from '../fixtures/targets/weak-rsa-key.js';
import type { Target } from '../fixtures/targets/start-target.js';
import { bearer, expectResult } from './expect-result.js';

const ID = 'jwt.weak_rsa_key';
const ISSUE = 'broken_authentication.weak_rsa_key';

describe('jwt.weak_rsa_key', () => {
  let target: Target | undefined;
  afterEach(async () => target?.close());

  it('fails with broken_authentication.weak_rsa_key (9.1) when the published JWKS key has a 1024-bit modulus', async () => {
    const signer = weakRsaSigner(1024);
    target = await startJwtTarget(signer.verify, { jwks: { keys: [signer.publicJwk] } });
    const outcome = await scanTarget(target.url('/me'), { checks: [ID], headers: bearer(signer.token()) });
    expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 9.1 }, requests: 1 });
  });

  it('passes with one request when the published key has 2048 bits', async () => {
    const signer = await rs256Signer();
    target = await startJwtTarget(signer.verify, { jwks: { keys: [signer.publicJwk] } });
    const outcome = await scanTarget(target.url('/me'), { checks: [ID], headers: bearer(await signer.token()) });
    expectResult(outcome, ID, { status: 'passed', requests: 1 });
  });

  it('fails from the signature length when no key is published: a 512-bit key signs 64 bytes', async () => {
    const signer = weakRsaSigner(512);
    target = await startJwtTarget(signer.verify);
    const outcome = await scanTarget(target.url('/me'), { checks: [ID], headers: bearer(signer.token()) });
    // The two key lookups (jwks.json, openid-configuration) find nothing; the signature decides.
    expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 9.1 }, requests: 2 });
    expect(resultOf(outcome, ID).findings[0].detail).to.match(
      /signature is 64 bytes long: the signing key's modulus has at most 512 bits/,
    );
  });

  it('passes from the signature length of a 2048-bit key when no key is published', async () => {
    const signer = weakRsaSigner(2048);
    target = await startJwtTarget(signer.verify);
    const outcome = await scanTarget(target.url('/me'), { checks: [ID], headers: bearer(signer.token()) });
    expectResult(outcome, ID, { status: 'passed', requests: 2 });
  });

  it('is skipped without a request for HMAC tokens', async () => {
    target = await startJwtTarget(() => true);
    const outcome = await scanTarget(target.url('/me'), {
      checks: [ID],
      headers: bearer(hs256Token('a-long-random-secret-for-tests-0123456789')),
    });
    expectResult(outcome, ID, { status: 'skipped', reason: /only RS and PS tokens/, requests: 0 });
  });
});
