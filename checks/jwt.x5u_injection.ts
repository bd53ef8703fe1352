/**
 * jwt.x5u_injection — the endpoint fetches the certificate named by the token's `x5u` header (RFC 7515 §4.1.5) and
 * trusts it without validating it against a trusted CA or an allowlist of URLs.
 * Gatehouse addition (docs/architecture.md §2.4), metadata as upstream jwtop's X5U injection check (9.3, CWE-295, CAPEC-194).
 *
 * Request: 1, the original claims (exp/nbf refreshed) signed RS256 with the scanner's throwaway key whose self-signed PEM certificate
 * the scanner serves on a callback server for the duration of the check (127.0.0.1, or all interfaces with
 * `ctx.options.callbackHost`; skipped for non-loopback targets without it). Verdict: failed when auth.baseline's rule
 * calls the response accepted; the detail says whether the target fetched the certificate.
 */
import { defineCheck } from '../scanner/api.js';
import { certificatePem, selfSignedCertificate } from './support/jwt/self-signed-certificate.js';
import { attackAccepted, requireProtectedEndpoint } from './support/auth-baseline-facts.js';
import { callbackHostOption, isLoopback, serveResource } from './support/callback-server.js';
import { forgedRsaToken, newScannerKey } from './support/forged-rsa-token.js';
import { carriesJwt, operationJwt } from './support/jwt-credential.js';
import { CALLBACK_HOST } from './support/shared-options.js';
import { tokenVerifier } from './support/token-verifier.js';

const ISSUE = 'broken_authentication.x5u_injection';

export default defineCheck({
  id: 'jwt.x5u_injection',
  name: 'JWT X5U Header Injection',
  issues: [
    {
      id: ISSUE,
      name: 'JWT x5u header URL is trusted',
      url: 'https://www.cerberauth.com/docs/jwtop/vulnerabilities/jwt-x5u-injection',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:N/SC:N/SI:N/SA:N', score: 9.3 },
      classifications: {
        owasp: 'API2:2023 Broken Authentication',
        cwe: 'CWE-295: Improper Certificate Validation',
        capec: 'CAPEC-194: Fake the Source of Data',
      },
    },
  ],
  options: [CALLBACK_HOST],
  dependsOn: ['auth.baseline'],
  sharedVerdict: tokenVerifier,
  appliesTo: carriesJwt,
  async run(ctx) {
    const jwt = operationJwt(ctx);
    const host = callbackHostOption(ctx.options);
    if (!host && !isLoopback(ctx.operation.url))
      return ctx.skip('the target cannot reach a loopback callback (set callbackHost to an address it can reach)');
    const facts = requireProtectedEndpoint(ctx);
    const key = await newScannerKey();
    const pem = certificatePem(selfSignedCertificate(key.privateKey, key.publicKey, 'Gatehouse scanner'));
    const callback = await serveResource(
      { name: 'cert.pem', contentType: 'application/pem-certificate-chain', body: pem },
      { host },
    );
    try {
      const response = await ctx.http.send({ credential: forgedRsaToken(jwt, key, { x5u: callback.url }) });
      const fetched =
        callback.fetches() > 0
          ? 'the target fetched the scanner-served certificate'
          : 'the certificate was not fetched';
      if (attackAccepted(response, facts))
        ctx.report(ISSUE, {
          detail: `a token whose x5u points at a scanner-served certificate is accepted (${response.status}); ${fetched}`,
          attempt: response,
        });
    } finally {
      await callback.close();
    }
  },
});
