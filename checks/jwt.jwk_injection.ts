/**
 * jwt.jwk_injection — the endpoint trusts a public key embedded in the token's own `jwk` header (RFC 7515 §4.1.3)
 * instead of its configured keys (CVE-2018-0114), so anyone can sign tokens with a key of their own.
 * Gatehouse addition (docs/architecture.md §2.4), metadata as upstream VulnAPI/jwtop's JWK injection check (9.3, CWE-345).
 *
 * Request: 1, the original claims (exp/nbf refreshed) signed RS256 with the scanner's throwaway RSA key (one per process) whose public JWK is embedded
 * in the header (with a matching kid). Verdict: failed when auth.baseline's rule calls the response accepted.
 */
import { defineCheck } from '../scanner/api.js';
import { attackAccepted, requireProtectedEndpoint } from './support/auth-baseline-facts.js';
import { forgedRsaToken, newScannerKey } from './support/forged-rsa-token.js';
import { carriesJwt, operationJwt } from './support/jwt-credential.js';
import { tokenVerifier } from './support/token-verifier.js';

const ISSUE = 'broken_authentication.jwk_injection';

export default defineCheck({
  id: 'jwt.jwk_injection',
  name: 'JWT JWK Header Injection',
  issues: [
    {
      id: ISSUE,
      name: 'JWT embedded JWK is trusted',
      url: 'https://www.cerberauth.com/docs/vulnapi/vulnerabilities/broken-authentication/jwt-jwk-injection?utm_source=vulnapi-report',
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
    const key = await newScannerKey();
    const jwk = { ...key.publicKey.export({ format: 'jwk' }), kid: key.kid, alg: 'RS256', use: 'sig' };
    const response = await ctx.http.send({ credential: forgedRsaToken(jwt, key, { jwk }) });
    if (attackAccepted(response, facts)) {
      ctx.report(ISSUE, {
        detail: `a token signed by a key embedded in its own jwk header is accepted (${response.status})`,
        attempt: response,
      });
    }
  },
});
