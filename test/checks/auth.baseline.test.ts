import { expect } from 'chai';
import { resultOf, scanTarget } from '../support/scan.js';
import { decodesOnly, hs256Token, startJwtTarget, verifiesHs256 } from '../fixtures/targets/jwt-target.js';
import type { Target } from '../fixtures/targets/start-target.js';
import { bearer, expectResult } from './expect-result.js';

const SECRET = 'a-long-random-secret-for-tests-0123456789';
const ID = 'auth.baseline';

describe('auth.baseline', () => {
  let target: Target | undefined;
  afterEach(async () => target?.close());

  it('learns with three requests that a protected endpoint needs a credential, accepts the given one and rejects garbage', async () => {
    target = await startJwtTarget(verifiesHs256(SECRET));
    const outcome = await scanTarget(target.url('/me'), { checks: [ID], headers: bearer(hs256Token(SECRET)) });
    expectResult(outcome, ID, { status: 'passed', requests: 3 });
    expect(resultOf(outcome, ID).data?.facts).to.deep.include({
      requiresCredential: true,
      credentialAccepted: true,
      garbageRejected: true,
    });
    expect(target.requests()).to.equal(3);
  });

  it('learns that a public endpoint does not need a credential', async () => {
    target = await startJwtTarget(() => true, { public: true });
    const outcome = await scanTarget(target.url('/'), { checks: [ID], headers: bearer(hs256Token(SECRET)) });
    expectResult(outcome, ID, { status: 'passed', requests: 3 });
    expect(resultOf(outcome, ID).data?.facts).to.deep.include({
      requiresCredential: false,
      credentialAccepted: true,
      garbageRejected: false,
    });
  });

  it('tells an endpoint that decodes tokens without verifying them (garbage still rejected) from a public one', async () => {
    target = await startJwtTarget(decodesOnly);
    const outcome = await scanTarget(target.url('/me'), { checks: [ID], headers: bearer(hs256Token(SECRET)) });
    expect(resultOf(outcome, ID).data?.facts).to.deep.include({
      requiresCredential: true,
      credentialAccepted: true,
      garbageRejected: true,
    });
  });

  it('records a rejected supplied credential', async () => {
    target = await startJwtTarget(verifiesHs256(SECRET));
    const outcome = await scanTarget(target.url('/me'), { checks: [ID], headers: bearer(hs256Token('wrong-secret')) });
    expect(resultOf(outcome, ID).data?.facts).to.deep.include({ requiresCredential: true, credentialAccepted: false });
  });

  it('is skipped, without a request, when the operation has no credential', async () => {
    target = await startJwtTarget(() => true, { public: true });
    const outcome = await scanTarget(target.url('/'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'skipped', reason: /no credential/, requests: 0 });
  });
});
