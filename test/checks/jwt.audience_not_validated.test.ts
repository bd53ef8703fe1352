import { expect } from 'chai';
import { resultOf, scanTarget } from '../support/scan.js';
import { hs256Token, startJwtTarget } from '../fixtures/targets/jwt-target.js';
import { verifiesClaims } from '../fixtures/targets/jwt-claims-target.js';
import type { Target } from '../fixtures/targets/start-target.js';
import { bearer, expectResult } from './expect-result.js';

const ID = 'jwt.audience_not_validated';
const ISSUE = 'broken_authentication.audience_not_validated';
const WEAK = 'supersecret'; // in the built-in dictionary: the known-key case
const ISSUER_KEY = 'issuer-secret-0123456789abcdef0123456789abc';
const ISS = 'https://idp.example.com/';
const claims = (aud: string | string[]): Record<string, unknown> => ({
  sub: 'user-1',
  iss: ISS,
  aud,
  exp: Math.floor(Date.now() / 1000) + 3600,
});
const ORDERS = 'https://orders.example.com';
const BILLING = 'https://billing.example.com';

describe('jwt.audience_not_validated', () => {
  let target: Target | undefined;
  afterEach(async () => target?.close());

  it('fails with broken_authentication.audience_not_validated (7.6) when a token for another API of the same issuer is relayed', async () => {
    target = await startJwtTarget(verifiesClaims({ secrets: [ISSUER_KEY], checkExp: true, issuer: ISS }));
    const outcome = await scanTarget(target.url('/orders'), {
      checks: [ID],
      headers: bearer(hs256Token(ISSUER_KEY, claims(ORDERS))),
      options: { otherAudienceToken: hs256Token(ISSUER_KEY, claims(BILLING)) },
    });
    expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 7.6 }, requests: 1 });
  });

  it('passes with one request when the API requires its own audience', async () => {
    target = await startJwtTarget(
      verifiesClaims({ secrets: [ISSUER_KEY], checkExp: true, issuer: ISS, audience: ORDERS }),
    );
    const outcome = await scanTarget(target.url('/orders'), {
      checks: [ID],
      headers: bearer(hs256Token(ISSUER_KEY, claims(ORDERS))),
      options: { otherAudienceToken: hs256Token(ISSUER_KEY, claims(BILLING)) },
    });
    expectResult(outcome, ID, { status: 'passed', requests: 1 });
  });

  it('fails in the known-key case: a dictionary secret lets it re-sign the token for a foreign audience', async () => {
    target = await startJwtTarget(verifiesClaims({ secrets: [WEAK], checkExp: true, issuer: ISS }));
    const outcome = await scanTarget(target.url('/orders'), {
      checks: [ID],
      headers: bearer(hs256Token(WEAK, claims(ORDERS))),
    });
    expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 7.6 }, requests: 1 });
  });

  it('passes in the known-key case against a server that checks aud', async () => {
    target = await startJwtTarget(verifiesClaims({ secrets: [WEAK], checkExp: true, issuer: ISS, audience: ORDERS }));
    const outcome = await scanTarget(target.url('/orders'), {
      checks: [ID],
      headers: bearer(hs256Token(WEAK, claims(ORDERS))),
    });
    expectResult(outcome, ID, { status: 'passed', requests: 1 });
  });

  it('is skipped when the option token shares an audience with the supplied one', async () => {
    target = await startJwtTarget(verifiesClaims({ secrets: [ISSUER_KEY], checkExp: true }));
    const outcome = await scanTarget(target.url('/orders'), {
      checks: [ID],
      headers: bearer(hs256Token(ISSUER_KEY, claims(ORDERS))),
      options: { otherAudienceToken: hs256Token(ISSUER_KEY, claims([BILLING, ORDERS])) },
    });
    expectResult(outcome, ID, { status: 'skipped', reason: /none of which/, requests: 0 });
  });

  it('is skipped without a request when no other-audience token can be had', async () => {
    target = await startJwtTarget(verifiesClaims({ secrets: [ISSUER_KEY], checkExp: true }));
    const outcome = await scanTarget(target.url('/orders'), {
      checks: [ID],
      headers: bearer(hs256Token(ISSUER_KEY, claims(ORDERS))),
    });
    expectResult(outcome, ID, { status: 'skipped', reason: /--jwt-other-audience-token option/, requests: 0 });
  });

  describe('with the second identity (--as-other) given as a token for another audience', () => {
    const asOther = (token: string): Record<string, unknown> => ({
      asOther: { name: 'Authorization', value: `Bearer ${token}` },
    });

    it("fails when the API accepts the other identity's token for the billing API (decoded aud differs from the first identity's)", async () => {
      target = await startJwtTarget(verifiesClaims({ secrets: [ISSUER_KEY], checkExp: true, issuer: ISS }));
      const outcome = await scanTarget(target.url('/orders'), {
        checks: [ID],
        headers: bearer(hs256Token(ISSUER_KEY, claims(ORDERS))),
        options: asOther(hs256Token(ISSUER_KEY, { ...claims(BILLING), sub: 'user-2' })),
      });
      expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 7.6 }, requests: 1 });
      expect(resultOf(outcome, ID).findings[0].detail).to.match(
        /--as-other credential, a token of the same issuer for aud \["https:\/\/billing\.example\.com"\]/,
      );
    });

    it('passes its safe twin, an API that requires its own audience', async () => {
      target = await startJwtTarget(
        verifiesClaims({ secrets: [ISSUER_KEY], checkExp: true, issuer: ISS, audience: ORDERS }),
      );
      const outcome = await scanTarget(target.url('/orders'), {
        checks: [ID],
        headers: bearer(hs256Token(ISSUER_KEY, claims(ORDERS))),
        options: asOther(hs256Token(ISSUER_KEY, { ...claims(BILLING), sub: 'user-2' })),
      });
      expectResult(outcome, ID, { status: 'passed', requests: 1 });
    });

    it('does not use an --as-other token for the same audience (another user of this API proves nothing about aud)', async () => {
      target = await startJwtTarget(verifiesClaims({ secrets: [ISSUER_KEY], checkExp: true, issuer: ISS }));
      const outcome = await scanTarget(target.url('/orders'), {
        checks: [ID],
        headers: bearer(hs256Token(ISSUER_KEY, claims(ORDERS))),
        options: asOther(hs256Token(ISSUER_KEY, { ...claims(ORDERS), sub: 'user-2' })),
      });
      expectResult(outcome, ID, {
        status: 'skipped',
        reason: /or an --as-other JWT for another audience/,
        requests: 0,
      });
    });
  });
});
