import { expect } from 'chai';
import { scanTarget } from '../support/scan.js';
import { hs256Token, startJwtTarget, verifiesHs256 } from '../fixtures/targets/jwt-target.js';
import { startTarget, type Target } from '../fixtures/targets/start-target.js';
import { bearer, expectResult } from './expect-result.js';

const SECRET = 'a-long-random-secret-for-tests-0123456789';
const ID = 'generic.accept_unauthenticated_operation';

describe('generic.accept_unauthenticated_operation', () => {
  let target: Target | undefined;
  afterEach(async () => target?.close());

  it('fails with broken_authentication.authentication_bypass (9.3) when the endpoint serves its data without the credential', async () => {
    // Another answer without the credential than with it: not a public page, the protected data leaks.
    target = await startTarget((req, res) => {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(req.headers.authorization ? '{"user":"alice","orders":[1,2]}' : '{"user":null,"orders":[3]}');
    });
    const outcome = await scanTarget(target.url('/me'), { checks: [ID], headers: bearer(hs256Token(SECRET)) });
    expectResult(outcome, ID, {
      status: 'failed',
      issues: { 'broken_authentication.authentication_bypass': 9.3 },
      requests: 0,
    });
  });

  it('scores Info, not 9.3, on a public endpoint that answers the same without any credential (scan curl)', async () => {
    target = await startJwtTarget(() => true, { public: true });
    const outcome = await scanTarget(target.url('/'), { checks: [ID], headers: bearer(hs256Token(SECRET)) });
    expectResult(outcome, ID, {
      status: 'failed',
      issues: { 'broken_authentication.authentication_bypass': 0 },
      requests: 0,
    });
    expect(outcome.results.find((r) => r.checkId === ID)!.findings[0].detail).to.match(
      /answers the same without any credential/,
    );
  });

  it('passes when the endpoint answers 401 without the credential', async () => {
    target = await startJwtTarget(verifiesHs256(SECRET));
    const outcome = await scanTarget(target.url('/me'), { checks: [ID], headers: bearer(hs256Token(SECRET)) });
    expectResult(outcome, ID, { status: 'passed', requests: 0 });
  });

  it('passes when the endpoint redirects to a login page without the credential (VulnAPI called a 302 a bypass)', async () => {
    target = await startTarget((req, res) => {
      if (req.headers.authorization) res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      else res.writeHead(302, { location: '/login' }).end();
    });
    const outcome = await scanTarget(target.url('/me'), { checks: [ID], headers: bearer(hs256Token(SECRET)) });
    expectResult(outcome, ID, { status: 'passed', requests: 0 });
  });

  it('is skipped when the operation has no credential to bypass', async () => {
    target = await startJwtTarget(() => true, { public: true });
    const outcome = await scanTarget(target.url('/'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'skipped', requests: 0 });
  });
});
