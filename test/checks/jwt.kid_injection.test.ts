import { scanTarget } from '../support/scan.js';
import {
  acceptsBlankSecret,
  hs256Token,
  kidFileLookup,
  kidSqlLookup,
  startJwtTarget,
  verifiesHs256,
} from '../fixtures/targets/jwt-target.js';
import type { Target } from '../fixtures/targets/start-target.js';
import { bearer, expectResult } from './expect-result.js';

const SECRET = 'a-long-random-secret-for-tests-0123456789';
const ID = 'jwt.kid_injection';
const ISSUE = { 'broken_authentication.kid_injection': 9.3 };

describe('jwt.kid_injection', () => {
  let target: Target | undefined;
  let cleanup: (() => void) | undefined;
  afterEach(async () => {
    await target?.close();
    cleanup?.();
    cleanup = undefined;
  });

  it('fails (sql_injection) with one request when a UNION SELECT in the kid chooses the key — no table name needed', async () => {
    target = await startJwtTarget(kidSqlLookup({ k1: SECRET }));
    const outcome = await scanTarget(target.url('/me'), {
      checks: [ID],
      headers: bearer(hs256Token(SECRET, undefined, { kid: 'k1' })),
    });
    expectResult(outcome, ID, { status: 'failed', issues: ISSUE, requests: 1 });
  });

  it('fails (path_traversal) when a kid of ../../dev/null makes the key empty and the control with the real kid is rejected', async () => {
    const lookup = kidFileLookup({ k1: SECRET });
    cleanup = lookup.cleanup;
    target = await startJwtTarget(lookup.verify);
    const outcome = await scanTarget(target.url('/me'), {
      checks: [ID],
      headers: bearer(hs256Token(SECRET, undefined, { kid: 'k1' })),
    });
    expectResult(outcome, ID, { status: 'failed', issues: ISSUE, requests: 3 });
  });

  it('passes with two requests against a server that verifies HS256 with its own secret', async () => {
    target = await startJwtTarget(verifiesHs256(SECRET));
    const outcome = await scanTarget(target.url('/me'), {
      checks: [ID],
      headers: bearer(hs256Token(SECRET, undefined, { kid: 'k1' })),
    });
    expectResult(outcome, ID, { status: 'passed', requests: 2 });
  });

  it('passes on a server whose secret is literally "secret" (VulnAPI false positive)', async () => {
    target = await startJwtTarget(verifiesHs256('secret'));
    const outcome = await scanTarget(target.url('/me'), { checks: [ID], headers: bearer(hs256Token('secret')) });
    expectResult(outcome, ID, { status: 'passed', requests: 2 });
  });

  it('passes on a blank-secret server: the control shows the empty key works whatever the kid (that is jwt.blank_secret)', async () => {
    target = await startJwtTarget(acceptsBlankSecret(SECRET));
    const outcome = await scanTarget(target.url('/me'), { checks: [ID], headers: bearer(hs256Token(SECRET)) });
    expectResult(outcome, ID, { status: 'passed', requests: 3 });
  });
});
