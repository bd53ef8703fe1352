/**
 * jwt.weak_rsa_key — the RSA key that verifies the endpoint's tokens is shorter than 2048 bits (RFC 7518 §3.3 and
 * §3.5: "a key of size 2048 bits or larger MUST be used"; NIST SP 800-131A disallows RSA-1024 signatures). A short
 * modulus can be factored, and whoever factors it signs any token.
 * Gatehouse addition (docs/architecture.md §2.4; docs/architecture.md §R.19 "weak RSA").
 *
 * Requests: the public key lookups of checks/support/find-public-keys.ts (0 with `jwtPublicKeyFile`, else 1–5 GETs
 * without credential: the origin's /.well-known/jwks.json, its OpenID configuration's jwks_uri, the token issuer's).
 * Verdict: failed when any RSA key found (the one matching the token's kid, else every RSA key of the set) has a
 * modulus below 2048 bits; passed when every one has at least 2048. When no key can be found, the modulus size is
 * read from the signature, which is exactly as long as the modulus (a 512-bit key signs 64 bytes): failed below 2048
 * bits. Skipped for tokens that are not RSxxx/PSxxx and on endpoints that do not require the token (auth.baseline).
 */
import { defineCheck } from '../scanner/api.js';
import { algInfo } from './support/jwt/algorithms.js';
import { requireProtectedEndpoint } from './support/auth-baseline-facts.js';
import { findPublicKeys } from './support/find-public-keys.js';
import { carriesJwt, operationJwt } from './support/jwt-credential.js';
import { JWT_PUBLIC_KEY_FILE } from './support/shared-options.js';

const ISSUE = 'broken_authentication.weak_rsa_key';
const MIN_MODULUS_BITS = 2048;

export default defineCheck({
  id: 'jwt.weak_rsa_key',
  name: 'JWT Weak RSA Key',
  issues: [
    {
      id: ISSUE,
      name: 'JWT RSA signing key is shorter than 2048 bits',
      url: 'https://www.rfc-editor.org/rfc/rfc7518#section-3.3',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:H/AT:N/PR:N/UI:N/VC:H/VI:H/VA:N/SC:N/SI:N/SA:N', score: 9.1 },
      classifications: { owasp: 'API2:2023 Broken Authentication', cwe: 'CWE-326: Inadequate Encryption Strength' },
    },
  ],
  options: [JWT_PUBLIC_KEY_FILE],
  dependsOn: ['auth.baseline'],
  appliesTo: carriesJwt,
  async run(ctx) {
    const jwt = operationJwt(ctx);
    const family = algInfo(jwt.alg)?.family;
    if (family !== 'rsa' && family !== 'rsa-pss')
      return ctx.skip(`token alg is ${jwt.alg || '(missing)'}; only RS and PS tokens have an RSA key`);
    requireProtectedEndpoint(ctx);
    const keys = (await findPublicKeys(ctx, jwt)).filter(
      (key) => key.asymmetricKeyType === 'rsa' || key.asymmetricKeyType === 'rsa-pss',
    );
    if (keys.length === 0) {
      // An RSA signature (PKCS#1 v1.5 or PSS) is exactly as long as the modulus in octets (RFC 8017 §8.1.1, §8.2.1).
      const bytes = Buffer.from(jwt.signatureSegment, 'base64url').length;
      if (bytes === 0) return ctx.skip('no RSA public key found and the token carries no signature to measure');
      const bits = bytes * 8;
      ctx.log.debug(`no RSA public key found; the ${jwt.alg} signature is ${bytes} bytes`);
      if (bits < MIN_MODULUS_BITS) {
        ctx.report(ISSUE, {
          detail: `no public key was found, but the token's ${jwt.alg} signature is ${bytes} bytes long: the signing key's modulus has at most ${bits} bits (at least ${MIN_MODULUS_BITS} required)`,
        });
      }
      return;
    }
    const sizes = keys.map((key) => key.asymmetricKeyDetails?.modulusLength ?? 0);
    const weakest = Math.min(...sizes);
    ctx.log.debug(`RSA modulus sizes: ${sizes.join(', ')} bits`);
    if (weakest < MIN_MODULUS_BITS)
      ctx.report(ISSUE, {
        detail: `an RSA key that verifies these tokens has a ${weakest}-bit modulus (at least ${MIN_MODULUS_BITS} required)`,
      });
  },
});
