/**
 * jwt.weak_secret — the HMAC secret that signed the supplied token is in a dictionary.
 *
 * Requests: none. Offline, in a worker thread: HMAC of the token's original `header.payload` bytes with every
 * candidate — the built-in list (checks/support/jwt/builtin-secrets.ts), then `--jwt-secrets-file` (ctx.options.jwtSecretsFile,
 * one secret per line) — compared with the token's signature. Verdict: failed on a match; the report names where the
 * secret is (list and line), never the secret itself.
 * Fixes VulnAPI (docs/architecture.md §R.13 #9, §R.15 #2): VulnAPI re-encoded a fresh header and compared whole tokens, so any token
 * with a kid or other header fields could never match; it also reported the issue twice.
 * No auth.baseline dependency: a cracked secret is proven offline whatever the endpoint answers.
 */
import { defineCheck } from '../scanner/api.js';
import { isHmacAlg } from './support/jwt/algorithms.js';
import { BUILT_IN_SECRETS } from './support/jwt/builtin-secrets.js';
import { crackHmacSecret } from './support/jwt/crack-hmac-secret.js';
import { carriesJwt, operationJwt } from './support/jwt-credential.js';
import { JWT_SECRETS_FILE } from './support/shared-options.js';

const ISSUE = 'broken_authentication.weak_secret';

function secretsFiles(option: unknown): string[] {
  if (typeof option === 'string' && option !== '') return [option];
  if (Array.isArray(option)) return option.filter((f): f is string => typeof f === 'string' && f !== '');
  return [];
}

export default defineCheck({
  id: 'jwt.weak_secret',
  name: 'JWT Weak Secret',
  issues: [
    {
      id: ISSUE,
      name: 'JWT Secret used for signing is weak',
      url: 'https://www.cerberauth.com/docs/vulnapi/vulnerabilities/broken-authentication/jwt-weak-secret?utm_source=vulnapi-report',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:N/SC:N/SI:N/SA:N', score: 9.3 },
      classifications: {
        owasp: 'API2:2023 Broken Authentication',
        cwe: 'CWE-345: Insufficient Verification of Data Authenticity',
      },
    },
  ],
  options: [JWT_SECRETS_FILE],
  // SecLists' 100k-line list takes well under a second per alg; the budget covers much larger files.
  timeoutMs: 300_000,
  appliesTo: carriesJwt,
  async run(ctx) {
    const jwt = operationJwt(ctx);
    const alg = jwt.alg;
    if (!isHmacAlg(alg))
      return ctx.skip(`token alg is ${jwt.alg || '(missing)'}; only HS256/384/512 secrets can be guessed`);
    const outcome = await crackHmacSecret(jwt, alg, {
      candidates: [...BUILT_IN_SECRETS],
      files: secretsFiles(ctx.options.jwtSecretsFile),
      signal: ctx.signal,
    });
    ctx.log.debug(`weak secret: ${outcome.tried} candidates tried`);
    if (outcome.match) {
      const where =
        outcome.match.source === 'built-in'
          ? `built-in list entry ${outcome.match.line}`
          : `${outcome.match.source} line ${outcome.match.line}`;
      ctx.report(ISSUE, {
        detail: `the ${jwt.alg} secret is in a dictionary (${where}, ${outcome.match.secret.length} characters)`,
      });
    }
  },
});
