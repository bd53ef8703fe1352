import { expect } from 'chai';
import { KNOWN, startAccountsTarget } from '../fixtures/targets/accounts-target.js';
import type { Target } from '../fixtures/targets/start-target.js';
import { resultOf, scanTarget } from '../support/scan.js';
import { expectResult } from './expect-result.js';

const ID = 'authentication.user_enumeration';
const ISSUE = 'broken_authentication.user_enumeration';
const json = { 'Content-Type': 'application/json' };
const post = (body: unknown) => ({ checks: [ID], method: 'POST', headers: json, body: JSON.stringify(body) });

describe('authentication.user_enumeration', () => {
  let target: (Target & { accounts(): string[] }) | undefined;
  afterEach(async () => target?.close());

  it('fails with broken_authentication.user_enumeration (6.9) when login says "no account" for an unknown user and 401 for a wrong password', async () => {
    target = await startAccountsTarget({ uniform: false });
    const outcome = await scanTarget(target.url('/login'), post(KNOWN));
    expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 6.9 }, requests: 3 });
    const result = resultOf(outcome, ID);
    expect(result.findings[0]!.detail).to.match(/status 401 vs 404/);
    expect(result.attempts.map((a) => a.request.body).join('\n'), 'the real password never leaves the scanner').to.not.include(KNOWN.password);
  });

  it('passes when login answers 401 "invalid credentials" to both, whatever request id it adds', async () => {
    target = await startAccountsTarget({ uniform: true });
    const outcome = await scanTarget(target.url('/login'), post(KNOWN));
    expectResult(outcome, ID, { status: 'passed', requests: 3 });
  });

  it('fails when registration says "already registered" for an existing user, and names the account it created', async () => {
    target = await startAccountsTarget({ uniform: false });
    const outcome = await scanTarget(target.url('/register'), post(KNOWN));
    expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 6.9 }, requests: 3 });
    const created = target.accounts().find((a) => a.startsWith('gatehouse-'))!;
    expect(resultOf(outcome, ID).findings[0]!.detail).to.include(`registered "${created}"`);
  });

  it('passes when registration answers 202 "check your e-mail" either way', async () => {
    target = await startAccountsTarget({ uniform: true });
    const outcome = await scanTarget(target.url('/register'), post(KNOWN));
    expectResult(outcome, ID, { status: 'passed', requests: 3 });
  });

  it('fails on a forgot-password operation that reveals unknown e-mails, and passes on one that does not', async () => {
    target = await startAccountsTarget({ uniform: false });
    expectResult(await scanTarget(target.url('/forgot-password'), post({ email: KNOWN.email })), ID, { status: 'failed', issues: { [ISSUE]: 6.9 }, requests: 3 });
    await target.close();
    target = await startAccountsTarget({ uniform: true });
    expectResult(await scanTarget(target.url('/forgot-password'), post({ email: KNOWN.email })), ID, { status: 'passed', requests: 3 });
  });

  it('never sends an operation whose path names reset (destructive at defaults)', async () => {
    target = await startAccountsTarget({ uniform: false });
    const outcome = await scanTarget(target.url('/password/reset'), post({ email: KNOWN.email }));
    expectResult(outcome, ID, { status: 'skipped', reason: /destructive/, requests: 0 });
  });

  it('is not applicable to other operations', async () => {
    target = await startAccountsTarget({ uniform: false });
    const outcome = await scanTarget(target.url('/orders'), post({ item: 'widget' }));
    expectResult(outcome, ID, { status: 'skipped', reason: /not a login/, requests: 0 });
  });
});
