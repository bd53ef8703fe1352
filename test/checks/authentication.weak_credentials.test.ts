import { expect } from 'chai';
import { scanGraphqlDemo, startGraphqlDemo, type GraphqlDemoTarget } from '../fixtures/targets/graphql-demo-target.js';
import { ALICE, startLoginTarget, type LoginTarget } from '../fixtures/targets/login-target.js';
import { resultOf, scanTarget } from '../support/scan.js';
import { expectResult } from './expect-result.js';
import { resultOn } from './graphql-demo-result.js';

const ID = 'authentication.weak_credentials';
const ISSUE = 'broken_authentication.weak_credentials';

/** `scan curl` of alice's own login, as a user scans a sign-in. */
const login = (target: LoginTarget, options: Record<string, unknown> = {}) =>
  scanTarget(target.url('/login'), {
    checks: [ID],
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(ALICE),
    options,
  });

describe('authentication.weak_credentials', () => {
  let target: LoginTarget | undefined;
  afterEach(async () => target?.close());

  it('fails (9.3) when an account signs in with a common password, proved twice against a wrong one', async () => {
    target = await startLoginTarget({ weak: { username: 'test', password: 'password' } });
    const outcome = await login(target);
    // The login as given, the control, 7 guesses (test/password is the 7th: one password at a time across
    // admin, test, administrator, guest, demo), the same sign-in again and a wrong password for test.
    expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 9.3 }, requests: 11 });
    const finding = resultOf(outcome, ID).findings[0];
    expect(finding.detail).to.match(
      /^the account "test" signs in with a common guess \(guess 7 of 20, 5 accounts tried\): answered 200 with a token and a session cookie, twice, while a wrong one for it got 401 "invalid credentials"/,
    );
    expect(target.tried().at(-2)).to.equal('test:password');
  });

  it('keeps the found password, the tokens it was answered with and the scanned login password out of the report', async () => {
    target = await startLoginTarget({ weak: { username: 'test', password: 'password' } });
    const outcome = await login(target);
    const written = JSON.stringify(outcome.results);
    expect(target.issued()).to.have.length.greaterThan(2);
    for (const secret of [...target.issued(), ALICE.password]) expect(written).to.not.include(secret);
    expect(written).to.not.include('"password":"password"');
    expect(written).to.include('[redacted]');
  });

  it("never tries the scan identity's own account", async () => {
    target = await startLoginTarget({ weak: { username: 'test', password: 'password' } });
    await login(target);
    const guesses = target.tried().slice(1);
    expect(guesses.filter((t) => t.startsWith(`${ALICE.username}:`))).to.deep.equal([]);
    expect(new Set(guesses.map((t) => t.split(':')[0]))).to.deep.equal(
      new Set(['admin', 'test', 'administrator', 'guest', 'demo']),
    );
  });

  it('passes after 20 guesses when no account takes a common password', async () => {
    target = await startLoginTarget();
    // The login as given, the control, 20 guesses.
    expectResult(await login(target), ID, { status: 'passed', requests: 22 });
  });

  it('guesses more only when opted in with --weak-credentials-tries, and tries the accounts given with --weak-credentials-user first', async () => {
    target = await startLoginTarget({ weak: { username: 'ops', password: 'welcome' } });
    const outcome = await login(target, { weakCredentialsTries: 60, weakCredentialsUser: ['ops'] });
    expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 9.3 } });
    expect(target.tried()[1].split(':')[0], 'the control is on the given account').to.equal('ops');
    expect(resultOf(outcome, ID).findings[0].detail).to.match(/"ops" .* \(guess 49 of 60, 6 accounts tried\)/);
  });

  it('stops at the first sign of a lockout and says so', async () => {
    target = await startLoginTarget({ lockAfter: 2 });
    const outcome = await login(target);
    // admin's control and its first guess are failures; its second guess, the 6th (one at a time across five
    // accounts), finds it locked.
    expectResult(outcome, ID, {
      status: 'skipped',
      reason:
        /throttles or locks sign-ins \(423 "account locked: too many failed sign-ins" to guess 6 of 20, none signed in\): stopped there/,
    });
    expect(target.tried()).to.have.length(8);
  });

  it('stops at the first 429', async () => {
    target = await startLoginTarget({ throttleAfter: 4 });
    const outcome = await login(target);
    expectResult(outcome, ID, {
      status: 'skipped',
      reason: /\(429 "too many requests" to guess 3 of 20, none signed in\)/,
      requests: 5,
    });
  });

  it('is skipped when a wrong password is answered like a sign-in', async () => {
    target = await startLoginTarget({ tokenOnFailure: true });
    expectResult(await login(target), ID, {
      status: 'skipped',
      reason: /wrong password is answered like a sign-in/,
      requests: 2,
    });
  });

  it('is not applicable to operations that do not sign in', async () => {
    target = await startLoginTarget();
    const outcome = await scanTarget(target.url('/orders'), {
      checks: [ID],
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ item: 'lamp', password: 'x' }),
    });
    expectResult(outcome, ID, { status: 'skipped', reason: /not a sign-in operation/, requests: 0 });
  });
});

describe('authentication.weak_credentials on GraphQL (the demo API)', function () {
  this.timeout(20_000);
  let target: GraphqlDemoTarget | undefined;
  afterEach(async () => target?.close());
  const LOGIN = 'POST /graphql mutation.login';
  const tried = (body: string | undefined): string =>
    (JSON.parse(body ?? '{}') as { variables?: { username?: string } }).variables?.username ?? '';

  it("finds the QA account's common password through mutation.login, never trying alice or bob, and redacts it", async () => {
    target = await startGraphqlDemo();
    const outcome = await scanGraphqlDemo(target, [ID, 'auth.baseline']);
    const result = resultOn(outcome, ID, LOGIN);
    expect(result.status).to.equal('failed');
    // The sign-in answers the same without alice's token (public), and the finding keeps its score all the same.
    expect(resultOn(outcome, 'auth.baseline', LOGIN).data?.facts).to.include({ answersSameWithout: true });
    expect(result.findings[0].cvss, 'not capped at Info').to.equal(undefined);
    expect(result.findings[0].detail).to.match(
      /^the account "test" signs in with a common guess \(guess 17 of 20, 5 accounts tried\): answered 200 with a token, twice, while a wrong one for it got "invalid username or password"/,
    );
    const accounts = new Set(
      result.attempts.filter((a) => a.request.body?.includes('mutation')).map((a) => tried(a.request.body)),
    );
    expect(accounts).to.deep.equal(new Set(['admin', 'test', 'administrator', 'guest', 'demo']));
    const written = JSON.stringify(outcome.results);
    const token = [...target.demo.store.tokens].find(([, id]) => id === 'u4')![0];
    expect(written).to.not.include('test123');
    expect(written).to.not.include(token);
  });

  it("reads no accounts list while an identity's own name is unknown (its me is refused): it could be on the list", async () => {
    target = await startGraphqlDemo();
    const outcome = await scanGraphqlDemo(target, [ID], { asOther: 'demo_not-a-token-of-anyone' });
    const result = resultOn(outcome, ID, LOGIN);
    expect(result.attempts.some((a) => a.request.body?.includes('users'))).to.equal(false);
    // The defaults alone reach the QA account: admin, test, administrator, guest, demo.
    expect(result.status).to.equal('failed');
  });

  it("stops at the secure twin's account lockout and says so", async () => {
    target = await startGraphqlDemo({ secure: true });
    const result = resultOn(await scanGraphqlDemo(target, [ID]), ID, LOGIN);
    expect(result.status).to.equal('skipped');
    expect(result.reason).to.equal(
      'the target throttles or locks sign-ins ("account locked: too many failed sign-ins, try again later" to guess 11 of 20, none signed in): stopped there',
    );
  });
});
