import { scanTarget } from '../support/scan.js';
import {
  acceptsBlankSecret,
  hs256Token,
  rs256Signer,
  startJwtTarget,
  verifiesHs256,
} from '../fixtures/targets/jwt-target.js';
import type { Target } from '../fixtures/targets/start-target.js';
import { bearer, expectResult } from './expect-result.js';

const SECRET = 'a-long-random-secret-for-tests-0123456789';
const ID = 'jwt.blank_secret';

describe('jwt.blank_secret', () => {
  let target: Target | undefined;
  afterEach(async () => target?.close());

  it('fails with broken_authentication.blank_secret (9.3) when a token signed with "" is accepted', async () => {
    target = await startJwtTarget(acceptsBlankSecret(SECRET));
    const outcome = await scanTarget(target.url('/me'), { checks: [ID], headers: bearer(hs256Token(SECRET)) });
    expectResult(outcome, ID, { status: 'failed', issues: { 'broken_authentication.blank_secret': 9.3 }, requests: 1 });
  });

  it('fails without a request when the supplied, accepted token is itself signed with ""', async () => {
    target = await startJwtTarget(verifiesHs256(''));
    const outcome = await scanTarget(target.url('/me'), { checks: [ID], headers: bearer(hs256Token('')) });
    expectResult(outcome, ID, { status: 'failed', issues: { 'broken_authentication.blank_secret': 9.3 }, requests: 0 });
  });

  it('passes with one request against a server that verifies HS256 with its secret', async () => {
    target = await startJwtTarget(verifiesHs256(SECRET));
    const outcome = await scanTarget(target.url('/me'), { checks: [ID], headers: bearer(hs256Token(SECRET)) });
    expectResult(outcome, ID, { status: 'passed', requests: 1 });
  });

  it('is skipped for an RS256 token, where a blank HMAC secret means nothing', async () => {
    const signer = await rs256Signer();
    target = await startJwtTarget(signer.verify);
    const outcome = await scanTarget(target.url('/me'), { checks: [ID], headers: bearer(await signer.token()) });
    expectResult(outcome, ID, { status: 'skipped', reason: /only applies to HS256/, requests: 0 });
  });
});
