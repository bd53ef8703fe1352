/**
 * jwt.expired_accepted — the endpoint accepts a token whose `exp` has passed (RFC 7519 §4.1.4: it MUST NOT be accepted
 * on or after that time, with at most a few minutes of leeway), so a leaked old token keeps working.
 * Gatehouse addition (docs/architecture.md §2.4; cerberauth/vulnapi#313). An expired token cannot be forged without the key, so the
 * check only uses expired tokens that are real (checks/support/claim-variant-token.ts):
 *   1. the supplied token itself, when it expired more than 5 minutes ago;
 *   2. else `ctx.options.expiredToken`, a token of the same issuer that expired more than 5 minutes ago;
 *   3. else the known-key case: the supplied HS* token's secret is in the weak-secret dictionaries, and the token is
 *      re-signed with `exp` one hour ago (`iat` two hours ago).
 * Requests: 0 in case 1 (auth.baseline's requests decide), 1 in cases 2 and 3; none, skipped, when no expired token
 * can be had.
 * Verdict: failed when auth.baseline's rule calls the expired token accepted (case 1: the supplied token was accepted
 * while requests without or with a garbage credential were rejected); passed when it is rejected.
 * In the known-key case the finding only follows from the recovered secret: it names jwt.weak_secret as its cause
 * (`evidence.cause`) and, when that finding is reported on the operation too, is linked to it and not scored again.
 */
import { defineCheck } from '../scanner/api.js';
import { attackAccepted, requireProtectedEndpoint } from './support/auth-baseline-facts.js';
import {
  expiredSince,
  nowSeconds,
  optionJwt,
  resignWithKnownSecret,
  type Resigned,
} from './support/claim-variant-token.js';
import { carriesJwt, operationJwt } from './support/jwt-credential.js';
import { JWT_SECRETS_FILE } from './support/shared-options.js';
import { tokenVerifier } from './support/token-verifier.js';

const ISSUE = 'broken_authentication.expired_token_accepted';
const LEEWAY_SECONDS = 300;

export default defineCheck({
  id: 'jwt.expired_accepted',
  name: 'JWT Expired Token Accepted',
  issues: [
    {
      id: ISSUE,
      name: 'JWT expired token is accepted',
      url: 'https://www.rfc-editor.org/rfc/rfc7519#section-4.1.4',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:P/PR:N/UI:N/VC:H/VI:L/VA:N/SC:N/SI:N/SA:N', score: 8.3 },
      classifications: { owasp: 'API2:2023 Broken Authentication', cwe: 'CWE-613: Insufficient Session Expiration' },
    },
  ],
  options: [
    JWT_SECRETS_FILE,
    {
      name: 'expiredToken',
      type: 'string',
      flag: '--jwt-expired-token',
      valueName: '<jwt>',
      doc: 'a token of the same issuer that expired',
      secret: true,
    },
  ],
  dependsOn: ['auth.baseline'],
  sharedVerdict: tokenVerifier,
  appliesTo: carriesJwt,
  async run(ctx) {
    const jwt = operationJwt(ctx);
    const facts = requireProtectedEndpoint(ctx);
    if (expiredSince(jwt, LEEWAY_SECONDS)) {
      if (!facts.garbageRejected)
        return ctx.skip(
          'a garbage credential is accepted too: the endpoint verifies nothing (jwt.not_verified), expiry proves nothing more',
        );
      const ago = nowSeconds() - Number(jwt.claims?.exp);
      return ctx.report(ISSUE, {
        detail: `the supplied token expired ${ago} s ago and is accepted (${facts.statuses.credential})`,
      });
    }
    const given = optionJwt(ctx, 'expiredToken');
    let token: string;
    let how: string;
    let cause: Resigned['cause'] | undefined;
    if (given) {
      if (!expiredSince(given, LEEWAY_SECONDS))
        return ctx.skip(`option expiredToken has not expired for more than ${LEEWAY_SECONDS} s`);
      token = given.raw;
      how = 'the expiredToken option';
    } else {
      const now = nowSeconds();
      const resigned = await resignWithKnownSecret(ctx, jwt, {
        iat: now - 7200,
        exp: now - 3600,
        ...(jwt.claims?.nbf !== undefined ? { nbf: now - 7200 } : {}),
      });
      if (!resigned)
        return ctx.skip(
          'the supplied token has not expired and no expired token can be had (give one with the expiredToken option)',
        );
      token = resigned.token;
      cause = resigned.cause;
      how = `the supplied token re-signed with exp one hour ago (secret from ${resigned.source})`;
    }
    const response = await ctx.http.send({ credential: token });
    if (attackAccepted(response, facts))
      ctx.report(ISSUE, {
        detail: `an expired token (${how}) is accepted (${response.status})`,
        attempt: response,
        ...(cause ? { cause } : {}),
      });
  },
});
