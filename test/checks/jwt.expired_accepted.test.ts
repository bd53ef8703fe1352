import { scanTarget } from '../support/scan.js';
import { hs256Token, startJwtTarget } from '../fixtures/targets/jwt-target.js';
import { verifiesClaims } from '../fixtures/targets/jwt-claims-target.js';
import type { Target } from '../fixtures/targets/start-target.js';
import { bearer, expectResult } from './expect-result.js';

const ID = 'jwt.expired_accepted';
const ISSUE = 'broken_authentication.expired_token_accepted';
const WEAK = 'supersecret'; // in the built-in dictionary: the known-key case
const STRONG = 'a-long-random-secret-for-tests-0123456789';
const now = (): number => Math.floor(Date.now() / 1000);
const claims = (exp: number): Record<string, unknown> => ({ sub: 'user-1', iat: exp - 3600, exp });

describe('jwt.expired_accepted', () => {
  let target: Target | undefined;
  afterEach(async () => target?.close());

  it('fails with broken_authentication.expired_token_accepted (8.3) without a request when the supplied token expired long ago and is accepted', async () => {
    target = await startJwtTarget(verifiesClaims({ secrets: [STRONG], checkExp: false }));
    const outcome = await scanTarget(target.url('/me'), {
      checks: [ID],
      headers: bearer(hs256Token(STRONG, claims(now() - 3600))),
    });
    expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 8.3 }, requests: 0 });
  });

  it('fails with one request when an expiredToken given as an option is accepted', async () => {
    target = await startJwtTarget(verifiesClaims({ secrets: [STRONG], checkExp: false }));
    const outcome = await scanTarget(target.url('/me'), {
      checks: [ID],
      headers: bearer(hs256Token(STRONG, claims(now() + 3600))),
      options: { expiredToken: hs256Token(STRONG, claims(now() - 3600)) },
    });
    expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 8.3 }, requests: 1 });
  });

  it('passes with one request when the expiredToken option is rejected by a server that checks exp', async () => {
    target = await startJwtTarget(verifiesClaims({ secrets: [STRONG], checkExp: true }));
    const outcome = await scanTarget(target.url('/me'), {
      checks: [ID],
      headers: bearer(hs256Token(STRONG, claims(now() + 3600))),
      options: { expiredToken: hs256Token(STRONG, claims(now() - 3600)) },
    });
    expectResult(outcome, ID, { status: 'passed', requests: 1 });
  });

  it('fails in the known-key case: a dictionary secret lets it re-sign the token with exp in the past', async () => {
    target = await startJwtTarget(verifiesClaims({ secrets: [WEAK], checkExp: false }));
    const outcome = await scanTarget(target.url('/me'), {
      checks: [ID],
      headers: bearer(hs256Token(WEAK, claims(now() + 3600))),
    });
    expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 8.3 }, requests: 1 });
  });

  it('passes in the known-key case against a server that checks exp', async () => {
    target = await startJwtTarget(verifiesClaims({ secrets: [WEAK], checkExp: true }));
    const outcome = await scanTarget(target.url('/me'), {
      checks: [ID],
      headers: bearer(hs256Token(WEAK, claims(now() + 3600))),
    });
    expectResult(outcome, ID, { status: 'passed', requests: 1 });
  });

  it('is skipped without a request when no expired token can be had (strong secret, no option)', async () => {
    target = await startJwtTarget(verifiesClaims({ secrets: [STRONG], checkExp: false }));
    const outcome = await scanTarget(target.url('/me'), {
      checks: [ID],
      headers: bearer(hs256Token(STRONG, claims(now() + 3600))),
    });
    expectResult(outcome, ID, { status: 'skipped', reason: /--jwt-expired-token option/, requests: 0 });
  });

  it('is skipped when the expiredToken option has not expired', async () => {
    target = await startJwtTarget(verifiesClaims({ secrets: [STRONG], checkExp: true }));
    const token = hs256Token(STRONG, claims(now() + 3600));
    const outcome = await scanTarget(target.url('/me'), {
      checks: [ID],
      headers: bearer(token),
      options: { expiredToken: token },
    });
    expectResult(outcome, ID, { status: 'skipped', reason: /has not expired/, requests: 0 });
  });

  it('is skipped when a garbage credential is accepted too, so acceptance of the expired token proves nothing about exp', async () => {
    target = await startJwtTarget((token) => token.split('.').length === 3 || token.startsWith('gatehouse-invalid-'));
    const outcome = await scanTarget(target.url('/me'), {
      checks: [ID],
      headers: bearer(hs256Token(STRONG, claims(now() - 3600))),
    });
    expectResult(outcome, ID, { status: 'skipped', reason: /garbage credential is accepted/, requests: 0 });
  });

  it('is skipped on a public endpoint', async () => {
    target = await startJwtTarget(() => true, { public: true });
    const outcome = await scanTarget(target.url('/'), {
      checks: [ID],
      headers: bearer(hs256Token(STRONG, claims(now() - 3600))),
    });
    expectResult(outcome, ID, { status: 'skipped', reason: /does not require a credential/, requests: 0 });
  });
});
