/**
 * jwt.hmac_confusion — algorithm confusion: the endpoint takes `alg` from the token, so an RS/PS/ES token re-signed
 * as HS256 with the server's *public* key as the HMAC secret verifies (RFC 8725 §2.1, §3.1).
 * Gatehouse addition (docs/architecture.md §2.4); scored like VulnAPI's other signature bypasses (9.3, CWE-345).
 *
 * Requests: the public key lookups of checks/support/find-public-keys.ts (0 with `jwtPublicKeyFile`, else 1–5 GETs
 * without credential), then up to 3 per key: HS256 over the original header (alg replaced) and claims, keyed with the
 * SPKI PEM, the same without its final newline, and (RSA) the PKCS#1 PEM — the forms libraries read keys in.
 * Verdict: failed at the first token auth.baseline's rule calls accepted. Skipped for HMAC tokens and when no public
 * key can be found.
 */
import type { KeyObject } from 'node:crypto';
import { defineCheck } from '../scanner/api.js';
import { algInfo } from './support/jwt/algorithms.js';
import { hmacToken, freshPayloadSegment } from './support/jwt/sign.js';
import { attackAccepted, requireProtectedEndpoint } from './support/auth-baseline-facts.js';
import { findPublicKeys } from './support/find-public-keys.js';
import { carriesJwt, operationJwt } from './support/jwt-credential.js';
import { JWT_PUBLIC_KEY_FILE } from './support/shared-options.js';
import { tokenVerifier } from './support/token-verifier.js';

const ISSUE = 'broken_authentication.hmac_confusion';

function keyForms(key: KeyObject): string[] {
  const spki = String(key.export({ type: 'spki', format: 'pem' }));
  const forms = [spki, spki.trimEnd()];
  if (key.asymmetricKeyType === 'rsa') forms.push(String(key.export({ type: 'pkcs1', format: 'pem' })));
  return forms;
}

export default defineCheck({
  id: 'jwt.hmac_confusion',
  name: 'JWT HMAC Confusion',
  issues: [
    {
      id: ISSUE,
      name: 'JWT public key is accepted as HMAC secret',
      url: 'https://www.cerberauth.com/docs/jwtop/vulnerabilities/jwt-hmac-confusion',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:N/SC:N/SI:N/SA:N', score: 9.3 },
      classifications: {
        owasp: 'API2:2023 Broken Authentication',
        cwe: 'CWE-345: Insufficient Verification of Data Authenticity',
      },
    },
  ],
  options: [JWT_PUBLIC_KEY_FILE],
  dependsOn: ['auth.baseline'],
  sharedVerdict: tokenVerifier,
  appliesTo: carriesJwt,
  async run(ctx) {
    const jwt = operationJwt(ctx);
    const family = algInfo(jwt.alg)?.family;
    if (!family || family === 'hmac' || family === 'eddsa')
      return ctx.skip(`token alg is ${jwt.alg || '(missing)'}; HMAC confusion needs an RS/PS/ES token`);
    const facts = requireProtectedEndpoint(ctx);
    const keys = await findPublicKeys(ctx, jwt);
    if (keys.length === 0) return ctx.skip('no public key found (give one with jwtPublicKeyFile, or publish a JWKS)');
    const payload = freshPayloadSegment(jwt);
    for (const key of keys) {
      for (const [index, secret] of keyForms(key).entries()) {
        const response = await ctx.http.send({
          credential: hmacToken({ ...jwt.header, alg: 'HS256' }, payload, secret),
        });
        if (attackAccepted(response, facts)) {
          const form = ['SPKI PEM', 'SPKI PEM without final newline', 'PKCS#1 PEM'][index];
          return ctx.report(ISSUE, {
            detail: `an HS256 token keyed with the public key (${form}) is accepted (${response.status})`,
            attempt: response,
          });
        }
      }
    }
  },
});
