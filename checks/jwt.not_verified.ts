/**
 * jwt.not_verified — the endpoint does not verify token signatures at all.
 *
 * Request: 1, the original header and payload segments with a well-formed signature made by a throwaway random key of
 * the token's own algorithm family (64 random bytes for HS*, RSA-2048 for RS/PS, the alg's curve for ES, Ed25519).
 * Verdict: failed when auth.baseline's rule calls the response accepted.
 * Fixes VulnAPI (docs/architecture.md §R.15 #4): VulnAPI skipped whenever the valid token worked and flagged a status change, so
 * the check was inverted; here a working token is the precondition (auth.baseline) and acceptance of the forged one
 * is the finding. Skipped for unsigned tokens (jwt.alg_none's case) and unknown algs.
 */
import { defineCheck } from '../scanner/api.js';
import { algInfo } from './support/jwt/algorithms.js';
import { randomKeySignature } from './support/jwt/sign.js';
import { attackAccepted, requireProtectedEndpoint } from './support/auth-baseline-facts.js';
import { carriesJwt, operationJwt } from './support/jwt-credential.js';
import { tokenVerifier } from './support/token-verifier.js';

const ISSUE = 'broken_authentication.not_verified';

export default defineCheck({
  id: 'jwt.not_verified',
  name: 'JWT Not Verified',
  issues: [
    {
      id: ISSUE,
      name: 'JWT Token is not verified',
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
    if (!algInfo(jwt.alg)) ctx.skip(`token alg ${jwt.alg || '(missing)'} has no key to forge a signature with`);
    const facts = requireProtectedEndpoint(ctx);
    const forged = `${jwt.signingInput}.${await randomKeySignature(jwt.alg, jwt.signingInput)}`;
    const response = await ctx.http.send({ credential: forged });
    if (attackAccepted(response, facts)) {
      ctx.report(ISSUE, {
        detail: `a token signed with a random ${jwt.alg} key is accepted (${response.status})`,
        attempt: response,
      });
    }
  },
});
