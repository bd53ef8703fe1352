/**
 * jwt.psychic_signature — the endpoint accepts an ECDSA signature with r = s = 0 ("psychic signatures",
 * CVE-2022-21449: Java 15–18 skipped the 0 < r, s < n check of FIPS 186-4 §6.4.2).
 * Gatehouse addition (docs/architecture.md §2.4), metadata as upstream VulnAPI/jwtop's psychic signature check (9.3, CWE-347).
 *
 * Request: 1, the original header and claims (exp/nbf refreshed) with an all-zero signature of the alg's size
 * (64/96/132 bytes for ES256/384/512). Only for ES* tokens. Verdict: failed when auth.baseline's rule calls it accepted.
 */
import { defineCheck } from '../scanner/api.js';
import { freshPayloadSegment } from './support/jwt/sign.js';
import { attackAccepted, requireProtectedEndpoint } from './support/auth-baseline-facts.js';
import { carriesJwt, operationJwt } from './support/jwt-credential.js';
import { tokenVerifier } from './support/token-verifier.js';

const ISSUE = 'broken_authentication.psychic_signature';
/** R||S lengths of JWS ECDSA signatures (RFC 7518 §3.4). */
const SIGNATURE_BYTES: Record<string, number> = { ES256: 64, ES384: 96, ES512: 132 };

export default defineCheck({
  id: 'jwt.psychic_signature',
  name: 'JWT Psychic Signature',
  issues: [
    {
      id: ISSUE,
      name: 'JWT ECDSA zero signature is accepted',
      url: 'https://www.cerberauth.com/docs/vulnapi/vulnerabilities/broken-authentication/jwt-psychic-signature?utm_source=vulnapi-report',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:N/SC:N/SI:N/SA:N', score: 9.3 },
      classifications: {
        owasp: 'API2:2023 Broken Authentication',
        cwe: 'CWE-347: Improper Verification of Cryptographic Signature',
        capec: 'CAPEC-475: Signature Spoofing by Improper Validation',
      },
    },
  ],
  dependsOn: ['auth.baseline'],
  sharedVerdict: tokenVerifier,
  appliesTo: carriesJwt,
  async run(ctx) {
    const jwt = operationJwt(ctx);
    const size = SIGNATURE_BYTES[jwt.alg];
    if (!size) return ctx.skip(`token alg is ${jwt.alg || '(missing)'}; psychic signatures concern ES256/384/512`);
    const facts = requireProtectedEndpoint(ctx);
    const token = `${jwt.headerSegment}.${freshPayloadSegment(jwt)}.${Buffer.alloc(size).toString('base64url')}`;
    const response = await ctx.http.send({ credential: token });
    if (attackAccepted(response, facts)) {
      ctx.report(ISSUE, {
        detail: `an ${jwt.alg} token with r = s = 0 is accepted (${response.status})`,
        attempt: response,
      });
    }
  },
});
