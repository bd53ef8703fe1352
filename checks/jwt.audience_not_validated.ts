/**
 * jwt.audience_not_validated — token relay: the endpoint accepts a token issued for another audience (another API of
 * the same issuer), so any service that receives a user's token can replay it here (RFC 7519 §4.1.3: a recipient
 * that does not identify itself with `aud` MUST reject the token; RFC 9068 §4; RFC 8725 §3.9).
 * Gatehouse addition (docs/architecture.md §2.4). Changing `aud` requires the issuer's key, so the check only uses real tokens
 * (checks/support/claim-variant-token.ts):
 *   1. `ctx.options.otherAudienceToken`, an unexpired token (normally of the same issuer) none of whose audiences is
 *      an audience of the supplied token;
 *   2. else the second identity's credential (`--as-other`, ctx.options.asOther) when it is an unexpired JWT of the
 *      same issuer whose audiences the supplied token does not have (a token another API of that issuer was given);
 *   3. else the known-key case: the supplied HS* token's secret is in the weak-secret dictionaries, and the token is
 *      re-signed with `aud` set to https://gatehouse-scanner.invalid/other-api (exp/nbf moved so only `aud` matters).
 * Requests: 1; none, skipped, when no such token can be had.
 * Verdict: failed when auth.baseline's rule calls the other-audience token accepted; passed when it is rejected.
 * In the known-key case the finding only follows from the recovered secret: it names jwt.weak_secret as its cause
 * (`evidence.cause`) and, when that finding is reported on the operation too, is linked to it and not scored again.
 */
import { defineCheck, parseUnverified, type CheckContext, type UnverifiedJwt } from '../scanner/api.js';
import { attackAccepted, requireProtectedEndpoint } from './support/auth-baseline-facts.js';
import {
  audiences,
  currentValidity,
  expiredSince,
  FOREIGN_ORIGIN,
  optionJwt,
  resignWithKnownSecret,
  type Resigned,
} from './support/claim-variant-token.js';
import { carriesJwt, operationJwt } from './support/jwt-credential.js';
import { AS_OTHER, JWT_SECRETS_FILE } from './support/shared-options.js';
import { tokenVerifier } from './support/token-verifier.js';

const ISSUE = 'broken_authentication.audience_not_validated';
const OTHER_AUDIENCE = `${FOREIGN_ORIGIN}/other-api`;

/**
 * The second identity (`--as-other`) when its credential is a JWT for another audience of the same issuer: a real
 * token, so its acceptance proves the endpoint ignores `aud` without forging anything. `undefined` otherwise (not a
 * JWT, no aud, an audience the supplied token shares, another issuer, expired), and when the supplied token names no
 * audience to compare with.
 */
function otherIdentityFor(ctx: CheckContext, jwt: UnverifiedJwt): UnverifiedJwt | undefined {
  const option = ctx.options.asOther as { value?: unknown } | undefined;
  if (typeof option?.value !== 'string') return undefined;
  const raw = /^\S+\s+(\S+)$/.exec(option.value.trim())?.[1] ?? option.value.trim();
  const parsed = parseUnverified(raw);
  if (!parsed.ok || !parsed.jwt.claims || raw === jwt.raw) return undefined;
  const own = audiences(jwt);
  const theirs = audiences(parsed.jwt);
  if (own.length === 0 || theirs.length === 0 || theirs.some((a) => own.includes(a))) return undefined;
  if (parsed.jwt.claims.iss !== jwt.claims?.iss || expiredSince(parsed.jwt, 0)) return undefined;
  return parsed.jwt;
}

export default defineCheck({
  id: 'jwt.audience_not_validated',
  name: 'JWT Audience Not Validated',
  issues: [
    {
      id: ISSUE,
      name: 'JWT issued for another audience is accepted',
      url: 'https://www.rfc-editor.org/rfc/rfc8725#section-3.9',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:P/PR:L/UI:N/VC:H/VI:H/VA:N/SC:N/SI:N/SA:N', score: 7.6 },
      classifications: { owasp: 'API2:2023 Broken Authentication', cwe: 'CWE-287: Improper Authentication' },
    },
  ],
  options: [
    JWT_SECRETS_FILE,
    AS_OTHER,
    {
      name: 'otherAudienceToken',
      type: 'string',
      flag: '--jwt-other-audience-token',
      valueName: '<jwt>',
      doc: 'an unexpired token for another audience',
      secret: true,
    },
  ],
  dependsOn: ['auth.baseline'],
  sharedVerdict: tokenVerifier,
  appliesTo: carriesJwt,
  async run(ctx) {
    const jwt = operationJwt(ctx);
    const facts = requireProtectedEndpoint(ctx);
    const given = optionJwt(ctx, 'otherAudienceToken');
    let token: string;
    let how: string;
    let cause: Resigned['cause'] | undefined;
    if (given) {
      const own = new Set(audiences(jwt));
      const other = audiences(given);
      if (other.length === 0 || other.some((a) => own.has(a)))
        return ctx.skip('option otherAudienceToken must carry aud values none of which the supplied token has');
      if (expiredSince(given, 0))
        return ctx.skip('option otherAudienceToken has expired: its rejection would prove nothing about aud');
      token = given.raw;
      how = `the otherAudienceToken option (aud ${JSON.stringify(other)})`;
    } else if (otherIdentityFor(ctx, jwt)) {
      const other = otherIdentityFor(ctx, jwt)!;
      token = other.raw;
      how = `the --as-other credential, a token of the same issuer for aud ${JSON.stringify(audiences(other))}`;
    } else {
      const resigned = await resignWithKnownSecret(ctx, jwt, { ...currentValidity(jwt), aud: OTHER_AUDIENCE });
      if (!resigned)
        return ctx.skip(
          'no token for another audience can be had (give one with the otherAudienceToken option, or an --as-other JWT for another audience)',
        );
      token = resigned.token;
      cause = resigned.cause;
      how = `the supplied token re-signed with aud ${OTHER_AUDIENCE} (secret from ${resigned.source})`;
    }
    const response = await ctx.http.send({ credential: token });
    if (attackAccepted(response, facts))
      ctx.report(ISSUE, {
        detail: `a token for another audience (${how}) is accepted (${response.status})`,
        attempt: response,
        ...(cause ? { cause } : {}),
      });
  },
});
