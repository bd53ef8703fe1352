/**
 * jwt.null_signature — the endpoint accepts the token with its signature removed (`header.payload.`).
 *
 * Request: 1, the original header and payload segments byte for byte, empty signature.
 * Verdict: failed when auth.baseline's rule calls the response accepted.
 * Fixes VulnAPI: skipped on endpoints that do not require a credential (docs/architecture.md §R.14); the payload is sent as
 * given instead of re-serialized.
 */
import { defineCheck } from '../scanner/api.js';
import { attackAccepted, requireProtectedEndpoint } from './support/auth-baseline-facts.js';
import { carriesJwt, operationJwt } from './support/jwt-credential.js';
import { tokenVerifier } from './support/token-verifier.js';

const ISSUE = 'broken_authentication.null_signature';

export default defineCheck({
  id: 'jwt.null_signature',
  name: 'JWT Null Signature',
  issues: [
    {
      id: ISSUE,
      name: 'JWT Token has a null signature',
      url: 'https://www.cerberauth.com/docs/vulnapi/vulnerabilities/broken-authentication/jwt-null-signature?utm_source=vulnapi-report',
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
    const facts = requireProtectedEndpoint(ctx);
    if (jwt.signatureSegment === '') ctx.skip('the supplied token has no signature already (see jwt.alg_none)');
    const response = await ctx.http.send({ credential: `${jwt.signingInput}.` });
    if (attackAccepted(response, facts)) {
      ctx.report(ISSUE, {
        detail: `the token without its signature is accepted (${response.status})`,
        attempt: response,
      });
    }
  },
});
