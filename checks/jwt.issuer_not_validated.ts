/**
 * jwt.issuer_not_validated — the endpoint accepts a token from an issuer other than the one it should trust: it checks
 * the signature against any key it knows (several tenants, a shared key, a JWKS that mixes issuers) but never
 * compares `iss` (RFC 7519 §4.1.1; RFC 8725 §3.8: validate the issuer and that the key belongs to it).
 * Gatehouse addition (docs/architecture.md §2.4; docs/architecture.md §R.19 "issuer confusion"). Such a token cannot be forged without a trusted
 * key, so the check only uses real ones (checks/support/claim-variant-token.ts):
 *   1. `ctx.options.otherIssuerToken`, an unexpired token whose `iss` differs from the supplied token's;
 *   2. else the known-key case: the supplied HS* token's secret is in the weak-secret dictionaries, and the token is
 *      re-signed with `iss` set to https://gatehouse-scanner.invalid/ (exp/nbf moved so only `iss` can be rejected).
 * Requests: 1; none, skipped, when no such token can be had.
 * Verdict: failed when auth.baseline's rule calls the other-issuer token accepted; passed when it is rejected.
 * In the known-key case the finding only follows from the recovered secret: it names jwt.weak_secret as its cause
 * (`evidence.cause`) and, when that finding is reported on the operation too, is linked to it and not scored again.
 */
import { defineCheck } from '../scanner/api.js';
import { attackAccepted, requireProtectedEndpoint } from './support/auth-baseline-facts.js';
import {
  currentValidity,
  expiredSince,
  FOREIGN_ORIGIN,
  optionJwt,
  resignWithKnownSecret,
  type Resigned,
} from './support/claim-variant-token.js';
import { carriesJwt, operationJwt } from './support/jwt-credential.js';
import { JWT_SECRETS_FILE } from './support/shared-options.js';
import { tokenVerifier } from './support/token-verifier.js';

const ISSUE = 'broken_authentication.issuer_not_validated';

export default defineCheck({
  id: 'jwt.issuer_not_validated',
  name: 'JWT Issuer Not Validated',
  issues: [
    {
      id: ISSUE,
      name: 'JWT issued by another issuer is accepted',
      url: 'https://www.rfc-editor.org/rfc/rfc8725#section-3.8',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:P/PR:N/UI:N/VC:H/VI:H/VA:N/SC:N/SI:N/SA:N', score: 9.1 },
      classifications: { owasp: 'API2:2023 Broken Authentication', cwe: 'CWE-287: Improper Authentication' },
    },
  ],
  options: [
    JWT_SECRETS_FILE,
    {
      name: 'otherIssuerToken',
      type: 'string',
      flag: '--jwt-other-issuer-token',
      valueName: '<jwt>',
      doc: 'an unexpired token from another issuer',
      secret: true,
    },
  ],
  dependsOn: ['auth.baseline'],
  sharedVerdict: tokenVerifier,
  appliesTo: carriesJwt,
  async run(ctx) {
    const jwt = operationJwt(ctx);
    const facts = requireProtectedEndpoint(ctx);
    const issuer = jwt.claims?.iss;
    const given = optionJwt(ctx, 'otherIssuerToken');
    let token: string;
    let how: string;
    let cause: Resigned['cause'] | undefined;
    if (given) {
      if (given.claims?.iss === issuer)
        return ctx.skip(`option otherIssuerToken has the same iss as the supplied token`);
      if (expiredSince(given, 0))
        return ctx.skip('option otherIssuerToken has expired: its rejection would prove nothing about iss');
      token = given.raw;
      how = `the otherIssuerToken option (iss ${JSON.stringify(given.claims?.iss ?? null)})`;
    } else {
      const resigned = await resignWithKnownSecret(ctx, jwt, { ...currentValidity(jwt), iss: `${FOREIGN_ORIGIN}/` });
      if (!resigned)
        return ctx.skip('no token of another issuer can be had (give one with the otherIssuerToken option)');
      token = resigned.token;
      cause = resigned.cause;
      how = `the supplied token re-signed with iss ${FOREIGN_ORIGIN}/ (secret from ${resigned.source})`;
    }
    const response = await ctx.http.send({ credential: token });
    if (attackAccepted(response, facts))
      ctx.report(ISSUE, {
        detail: `a token of another issuer (${how}) is accepted (${response.status})`,
        attempt: response,
        ...(cause ? { cause } : {}),
      });
  },
});
