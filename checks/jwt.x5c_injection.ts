/**
 * jwt.x5c_injection — the endpoint verifies with the certificate the token carries in its `x5c` header (RFC 7515
 * §4.1.6) without validating it against a trusted CA, so a self-signed certificate of the attacker's key works.
 * Gatehouse addition (docs/architecture.md §2.4), metadata as upstream jwtop's X5C injection check (9.3, CWE-295, CAPEC-194).
 *
 * Request: 1, the original claims (exp/nbf refreshed) signed RS256 with the scanner's throwaway key, its self-signed certificate in
 * `x5c`. Verdict: failed when auth.baseline's rule calls the response accepted.
 */
import { defineCheck } from '../scanner/api.js';
import { selfSignedCertificate } from './support/jwt/self-signed-certificate.js';
import { attackAccepted, requireProtectedEndpoint } from './support/auth-baseline-facts.js';
import { forgedRsaToken, newScannerKey } from './support/forged-rsa-token.js';
import { carriesJwt, operationJwt } from './support/jwt-credential.js';
import { tokenVerifier } from './support/token-verifier.js';

const ISSUE = 'broken_authentication.x5c_injection';

export default defineCheck({
  id: 'jwt.x5c_injection',
  name: 'JWT X5C Header Injection',
  issues: [
    {
      id: ISSUE,
      name: 'JWT x5c header certificate is trusted',
      url: 'https://www.cerberauth.com/docs/jwtop/vulnerabilities/jwt-x5c-injection',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:N/SC:N/SI:N/SA:N', score: 9.3 },
      classifications: {
        owasp: 'API2:2023 Broken Authentication',
        cwe: 'CWE-295: Improper Certificate Validation',
        capec: 'CAPEC-194: Fake the Source of Data',
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
    // x5c holds base64 (not base64url) DER certificates, RFC 7515 §4.1.6.
    const certificate = selfSignedCertificate(key.privateKey, key.publicKey, 'Gatehouse scanner').toString('base64');
    const response = await ctx.http.send({ credential: forgedRsaToken(jwt, key, { x5c: [certificate] }) });
    if (attackAccepted(response, facts)) {
      ctx.report(ISSUE, {
        detail: `a token signed by the key of a self-signed x5c certificate is accepted (${response.status})`,
        attempt: response,
      });
    }
  },
});
