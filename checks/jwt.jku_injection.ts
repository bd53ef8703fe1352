/**
 * jwt.jku_injection — the endpoint fetches the key set named by the token's `jku` header (RFC 7515 §4.1.2) without an
 * allowlist, so a token signed with the attacker's key verifies against the attacker's JWKS.
 * Gatehouse addition (docs/architecture.md §2.4), metadata as upstream jwtop's JKU injection check (9.3, CWE-346, CAPEC-194).
 *
 * Request: 1, the original claims (exp/nbf refreshed) signed RS256 with the scanner's throwaway key whose JWKS the scanner serves on
 * a callback server for the duration of the check; the header's `jku` points at it. The callback binds 127.0.0.1, so
 * the check is skipped for non-loopback targets unless `ctx.options.callbackHost` names an address of this machine the
 * target can reach. Verdict: failed when auth.baseline's rule calls the response accepted; the detail says whether
 * the target fetched the key set.
 */
import { defineCheck } from '../scanner/api.js';
import { attackAccepted, requireProtectedEndpoint } from './support/auth-baseline-facts.js';
import { callbackHostOption, isLoopback, serveResource } from './support/callback-server.js';
import { forgedRsaToken, newScannerKey } from './support/forged-rsa-token.js';
import { carriesJwt, operationJwt } from './support/jwt-credential.js';
import { CALLBACK_HOST } from './support/shared-options.js';
import { tokenVerifier } from './support/token-verifier.js';

const ISSUE = 'broken_authentication.jku_injection';

export default defineCheck({
  id: 'jwt.jku_injection',
  name: 'JWT JKU Header Injection',
  issues: [
    {
      id: ISSUE,
      name: 'JWT jku header URL is trusted',
      url: 'https://www.cerberauth.com/docs/jwtop/vulnerabilities/jwt-jku-injection',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:N/SC:N/SI:N/SA:N', score: 9.3 },
      classifications: {
        owasp: 'API2:2023 Broken Authentication',
        cwe: 'CWE-346: Origin Validation Error',
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
    const jwk = { ...key.publicKey.export({ format: 'jwk' }), kid: key.kid, alg: 'RS256', use: 'sig' };
    const callback = await serveResource(
      { name: 'jwks.json', contentType: 'application/json', body: JSON.stringify({ keys: [jwk] }) },
      { host },
    );
    try {
      const response = await ctx.http.send({ credential: forgedRsaToken(jwt, key, { jku: callback.url }) });
      const fetched =
        callback.fetches() > 0 ? 'the target fetched the scanner-served key set' : 'the key set was not fetched';
      if (attackAccepted(response, facts))
        ctx.report(ISSUE, {
          detail: `a token whose jku points at a scanner-served JWKS is accepted (${response.status}); ${fetched}`,
          attempt: response,
        });
      else if (callback.fetches() > 0) ctx.log.debug('the target fetched the jku URL but rejected the token');
    } finally {
      await callback.close();
    }
  },
});
