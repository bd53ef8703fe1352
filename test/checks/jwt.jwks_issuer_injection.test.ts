import { expect } from 'chai';
import { resultOf, scanTarget } from '../support/scan.js';
import { defaultClaims, rs256Signer, startJwtTarget } from '../fixtures/targets/jwt-target.js';
import { fetchesIssuerKeys } from '../fixtures/targets/issuer-keys.js';
import type { Target } from '../fixtures/targets/start-target.js';
import { bearer, expectResult } from './expect-result.js';

const ID = 'jwt.jwks_issuer_injection';
const ISSUE = 'broken_authentication.jwks_issuer_injection';
const ISSUER = 'https://idp.example.com';

describe('jwt.jwks_issuer_injection', () => {
  let target: Target | undefined;
  afterEach(async () => target?.close());

  it('fails with broken_authentication.jwks_issuer_injection (9.3) when the API fetches the keys of whatever other issuer the token names', async () => {
    const signer = await rs256Signer();
    target = await startJwtTarget(fetchesIssuerKeys(signer.verify, { issuer: ISSUER, othersTrusted: true }));
    const outcome = await scanTarget(target.url('/me'), {
      checks: [ID],
      headers: bearer(await signer.token({ ...defaultClaims(), iss: ISSUER })),
    });
    expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 9.3 }, requests: 1 });
    expect(resultOf(outcome, ID).findings[0].detail).to.match(
      /the target fetched its discovery document and key set \(2 request/,
    );
  });

  it('passes with one request when the API only trusts its configured issuer (its safe twin)', async () => {
    const signer = await rs256Signer();
    target = await startJwtTarget(fetchesIssuerKeys(signer.verify, { issuer: ISSUER, othersTrusted: false }));
    const outcome = await scanTarget(target.url('/me'), {
      checks: [ID],
      headers: bearer(await signer.token({ ...defaultClaims(), iss: ISSUER })),
    });
    expectResult(outcome, ID, { status: 'passed', requests: 1 });
  });

  it('passes when the token is accepted without any fetch: an unverified signature is jwt.not_verified, not this', async () => {
    const signer = await rs256Signer();
    // Any three-part token is accepted; auth.baseline's garbage credential has no dots, so the endpoint still looks protected.
    target = await startJwtTarget((token) => token.split('.').length === 3);
    const outcome = await scanTarget(target.url('/me'), { checks: [ID], headers: bearer(await signer.token()) });
    expectResult(outcome, ID, { status: 'passed', requests: 1 });
  });
});
