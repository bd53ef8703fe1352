import { scanTarget } from '../support/scan.js';
import { hs256Token, startJwtTarget } from '../fixtures/targets/jwt-target.js';
import { verifiesClaims } from '../fixtures/targets/jwt-claims-target.js';
import type { Target } from '../fixtures/targets/start-target.js';
import { bearer, expectResult } from './expect-result.js';

const ID = 'jwt.issuer_not_validated';
const ISSUE = 'broken_authentication.issuer_not_validated';
const WEAK = 'supersecret'; // in the built-in dictionary: the known-key case
const TENANT_A = 'tenant-a-secret-0123456789abcdef0123456789';
const TENANT_B = 'tenant-b-secret-0123456789abcdef0123456789';
const claims = (iss: string): Record<string, unknown> => ({
  sub: 'user-1',
  iss,
  exp: Math.floor(Date.now() / 1000) + 3600,
});

describe('jwt.issuer_not_validated', () => {
  let target: Target | undefined;
  afterEach(async () => target?.close());

  it("fails with broken_authentication.issuer_not_validated (9.1) when a multi-tenant API accepts tenant B's token without comparing iss", async () => {
    target = await startJwtTarget(verifiesClaims({ secrets: [TENANT_A, TENANT_B], checkExp: true }));
    const outcome = await scanTarget(target.url('/me'), {
      checks: [ID],
      headers: bearer(hs256Token(TENANT_A, claims('https://a.example.com/'))),
      options: { otherIssuerToken: hs256Token(TENANT_B, claims('https://b.example.com/')) },
    });
    expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 9.1 }, requests: 1 });
  });

  it('passes with one request when the API compares iss with the issuer it trusts', async () => {
    target = await startJwtTarget(
      verifiesClaims({ secrets: [TENANT_A, TENANT_B], checkExp: true, issuer: 'https://a.example.com/' }),
    );
    const outcome = await scanTarget(target.url('/me'), {
      checks: [ID],
      headers: bearer(hs256Token(TENANT_A, claims('https://a.example.com/'))),
      options: { otherIssuerToken: hs256Token(TENANT_B, claims('https://b.example.com/')) },
    });
    expectResult(outcome, ID, { status: 'passed', requests: 1 });
  });

  it('fails in the known-key case: a dictionary secret lets it re-sign the token with a foreign iss', async () => {
    target = await startJwtTarget(verifiesClaims({ secrets: [WEAK], checkExp: true }));
    const outcome = await scanTarget(target.url('/me'), {
      checks: [ID],
      headers: bearer(hs256Token(WEAK, claims('https://a.example.com/'))),
    });
    expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 9.1 }, requests: 1 });
  });

  it('passes in the known-key case against a server that checks iss', async () => {
    target = await startJwtTarget(
      verifiesClaims({ secrets: [WEAK], checkExp: true, issuer: 'https://a.example.com/' }),
    );
    const outcome = await scanTarget(target.url('/me'), {
      checks: [ID],
      headers: bearer(hs256Token(WEAK, claims('https://a.example.com/'))),
    });
    expectResult(outcome, ID, { status: 'passed', requests: 1 });
  });

  it('is skipped when the option token has the same issuer as the supplied one', async () => {
    target = await startJwtTarget(verifiesClaims({ secrets: [TENANT_A], checkExp: true }));
    const token = hs256Token(TENANT_A, claims('https://a.example.com/'));
    const outcome = await scanTarget(target.url('/me'), {
      checks: [ID],
      headers: bearer(token),
      options: { otherIssuerToken: token },
    });
    expectResult(outcome, ID, { status: 'skipped', reason: /same iss/, requests: 0 });
  });

  it('is skipped without a request when no other-issuer token can be had', async () => {
    target = await startJwtTarget(verifiesClaims({ secrets: [TENANT_A], checkExp: true }));
    const outcome = await scanTarget(target.url('/me'), {
      checks: [ID],
      headers: bearer(hs256Token(TENANT_A, claims('https://a.example.com/'))),
    });
    expectResult(outcome, ID, { status: 'skipped', reason: /--jwt-other-issuer-token option/, requests: 0 });
  });
});
