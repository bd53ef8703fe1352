import { expect } from 'chai';
import { KNOWN, startAccountsTarget } from '../fixtures/targets/accounts-target.js';
import type { Target } from '../fixtures/targets/start-target.js';
import { resultOf, scanTarget } from '../support/scan.js';
import { expectResult } from './expect-result.js';
import { scanDocument } from './scan-document.js';

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
    expect(result.findings[0].detail).to.match(/status 401 vs 404/);
    expect(
      result.attempts.map((a) => a.request.body).join('\n'),
      'the real password never leaves the scanner',
    ).to.not.include(KNOWN.password);
  });

  it('passes when login answers 401 "invalid credentials" to both, whatever request id it adds', async () => {
    target = await startAccountsTarget({ uniform: true });
    const outcome = await scanTarget(target.url('/login'), post(KNOWN));
    expectResult(outcome, ID, { status: 'passed', requests: 3 });
  });

  it('reports registration saying "already registered" for an existing user as Info, and names the account it created', async () => {
    target = await startAccountsTarget({ uniform: false });
    const outcome = await scanTarget(target.url('/register'), post(KNOWN));
    expectResult(outcome, ID, {
      status: 'failed',
      issues: { 'broken_authentication.user_enumeration_registration': 0 },
      requests: 3,
    });
    const created = target.accounts().find((a) => a.startsWith('gatehouse-'))!;
    expect(resultOf(outcome, ID).findings[0].detail).to.include(`registered "${created}"`);
  });

  it('passes when registration answers 202 "check your e-mail" either way', async () => {
    target = await startAccountsTarget({ uniform: true });
    const outcome = await scanTarget(target.url('/register'), post(KNOWN));
    expectResult(outcome, ID, { status: 'passed', requests: 3 });
  });

  it('fails on a forgot-password operation that reveals unknown e-mails, and passes on one that does not', async () => {
    target = await startAccountsTarget({ uniform: false });
    expectResult(await scanTarget(target.url('/forgot-password'), post({ email: KNOWN.email })), ID, {
      status: 'failed',
      issues: { [ISSUE]: 6.9 },
      requests: 3,
    });
    await target.close();
    target = await startAccountsTarget({ uniform: true });
    expectResult(await scanTarget(target.url('/forgot-password'), post({ email: KNOWN.email })), ID, {
      status: 'passed',
      requests: 3,
    });
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

describe('authentication.user_enumeration in an OpenAPI scan', () => {
  const credentials = {
    type: 'object',
    properties: {
      email: { type: 'string', format: 'email', example: 'nobody@example.com' },
      password: { type: 'string', format: 'password' },
    },
  };
  const body = { content: { 'application/json': { schema: credentials } } };
  const login = {
    '/login': { post: { operationId: 'login', requestBody: body, responses: { '200': { description: 'token' } } } },
  };
  const register = {
    '/register': {
      post: { operationId: 'register', requestBody: body, responses: { '202': { description: 'registered' } } },
    },
  };
  const document = (paths: object) => ({ openapi: '3.1.0', info: { title: 'accounts', version: '1' }, paths });
  let target: (Target & { accounts(): string[] }) | undefined;
  afterEach(async () => target?.close());

  it('registers a user of its own as the known user when the example user does not exist, and names it', async () => {
    target = await startAccountsTarget({ uniform: false });
    const outcome = await scanDocument(document({ ...register, ...login }) as never, target.origin, {
      checks: [ID],
      only: ['POST /login'],
    });
    expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 6.9 }, requests: 4 });
    const registered = target.accounts().find((a) => a.startsWith('gh_'))!;
    expect(resultOf(outcome, ID).findings[0].detail).to.include(
      `known user "${registered}" was registered by the scan`,
    );
  });

  it('without a registration, compares two unknown users and passes (the example user does not exist)', async () => {
    target = await startAccountsTarget({ uniform: false });
    const outcome = await scanDocument(document(login) as never, target.origin, { checks: [ID] });
    expectResult(outcome, ID, { status: 'passed', requests: 3 });
  });

  it('passes on the uniform twin even with a registered known user', async () => {
    target = await startAccountsTarget({ uniform: true });
    const outcome = await scanDocument(document({ ...register, ...login }) as never, target.origin, {
      checks: [ID],
      only: ['POST /login'],
    });
    expectResult(outcome, ID, { status: 'passed', requests: 4 });
  });
});
