/**
 * jwt.blank_secret — the endpoint verifies HMAC tokens with an empty secret.
 *
 * Request: 1, the original header and payload segments re-signed with the original HS* alg and the key "".
 * Verdict: failed when auth.baseline's rule calls the response accepted.
 * Fixes VulnAPI: skipped (not an error) for non-HMAC tokens, where a blank HMAC key means nothing; skipped on
 * endpoints that do not require a credential (docs/architecture.md §R.14); the original header (kid included) is kept.
 */
import { defineCheck } from '../scanner/api.js';
import { isHmacAlg } from './support/jwt/algorithms.js';
import { hmacSignature } from './support/jwt/sign.js';
import { attackAccepted, requireProtectedEndpoint } from './support/auth-baseline-facts.js';
import { carriesJwt, operationJwt } from './support/jwt-credential.js';
import { tokenVerifier } from './support/token-verifier.js';

const ISSUE = 'broken_authentication.blank_secret';

export default defineCheck({
  id: 'jwt.blank_secret',
  name: 'JWT Blank Secret',
  issues: [
    {
      id: ISSUE,
      name: 'JWT Secret used for signing is blank',
      url: 'https://www.cerberauth.com/docs/vulnapi/vulnerabilities/broken-authentication/jwt-blank-secret?utm_source=vulnapi-report',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:N/SC:N/SI:N/SA:N', score: 9.3 },
      classifications: {
        owasp: 'API2:2023 Broken Authentication',
        cwe: 'CWE-345: Insufficient Verification of Data Authenticity',
      },
    },
  ],
  dependsOn: ['auth.baseline'],
  sharedVerdict: tokenVerifier,
  appliesTo: carriesJwt,
  async run(ctx) {
    const jwt = operationJwt(ctx);
    const alg = jwt.alg;
    if (!isHmacAlg(alg))
      return ctx.skip(`token alg is ${jwt.alg || '(missing)'}; a blank secret only applies to HS256/384/512`);
    const facts = requireProtectedEndpoint(ctx);
    const token = `${jwt.signingInput}.${hmacSignature(alg, '', jwt.signingInput)}`;
    if (token === jwt.raw) {
      ctx.report(ISSUE, { detail: 'the supplied token itself is signed with a blank secret' });
      return;
    }
    const response = await ctx.http.send({ credential: token });
    if (attackAccepted(response, facts)) {
      ctx.report(ISSUE, {
        detail: `a token signed with an empty ${jwt.alg} secret is accepted (${response.status})`,
        attempt: response,
      });
    }
  },
});
