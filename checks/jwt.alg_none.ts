/**
 * jwt.alg_none — the endpoint accepts an unsigned token (`alg: none`, RFC 7518 §3.6).
 *
 * Requests: up to 4, one per spelling `none`, `NONE`, `None`, `nOnE`, each with the original header (alg replaced,
 * kid/typ kept), the original claims (exp/nbf refreshed so expiry is not what gets rejected) and an empty signature.
 * Verdict: failed at the first token auth.baseline's rule calls accepted; passed when all four are rejected.
 * Fixes VulnAPI: skipped on endpoints that do not require a credential (docs/architecture.md §R.14); when the supplied token is
 * already `alg: none` it is not "failed with zero requests" (§1.5 #6) — auth.baseline's requests decide.
 */
import { defineCheck } from '../scanner/api.js';
import { isNoneAlg } from './support/jwt/algorithms.js';
import { freshPayloadSegment, unsignedToken } from './support/jwt/sign.js';
import { attackAccepted, requireProtectedEndpoint } from './support/auth-baseline-facts.js';
import { carriesJwt, operationJwt } from './support/jwt-credential.js';
import { tokenVerifier } from './support/token-verifier.js';

const ISSUE = 'broken_authentication.alg_none';
const SPELLINGS = ['none', 'NONE', 'None', 'nOnE'];

export default defineCheck({
  id: 'jwt.alg_none',
  name: 'JWT None Algorithm',
  issues: [
    {
      id: ISSUE,
      name: 'JWT Algorithm None is accepted',
      url: 'https://www.cerberauth.com/docs/vulnapi/vulnerabilities/broken-authentication/jwt-alg-none?utm_source=vulnapi-report',
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
    if (isNoneAlg(jwt.alg)) {
      // The supplied token is unsigned and auth.baseline saw it accepted while no credential was rejected.
      ctx.report(ISSUE, { detail: `the supplied token uses alg "${jwt.alg}" and is accepted` });
      return;
    }
    const payload = freshPayloadSegment(jwt);
    for (const alg of SPELLINGS) {
      const response = await ctx.http.send({ credential: unsignedToken({ ...jwt.header, alg }, payload) });
      if (attackAccepted(response, facts)) {
        ctx.report(ISSUE, {
          detail: `a token with alg "${alg}" and no signature is accepted (${response.status})`,
          attempt: response,
        });
        return;
      }
    }
  },
});
