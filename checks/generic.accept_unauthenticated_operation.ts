/**
 * generic.accept_unauthenticated_operation — authentication bypass: the operation is scanned with a credential, yet
 * a request without any credential succeeds.
 *
 * Requests: none of its own — auth.baseline already sent the request without credential (see its attempts).
 * Verdict: failed when that request got a 2xx/3xx answer of the same class as the credential's answer.
 * Fixes VulnAPI (docs/architecture.md §R.15 #10): a 302-to-login, 405, 422 or 429 without credential is a rejection when the
 * credential got a different class of answer, not an "accepted" bypass.
 */
import { defineCheck } from '../scanner/api.js';
import { readBaseline } from './support/auth-baseline-facts.js';

const ISSUE = 'broken_authentication.authentication_bypass';

export default defineCheck({
  id: 'generic.accept_unauthenticated_operation',
  name: 'Accept Unauthenticated Operation',
  issues: [
    {
      id: ISSUE,
      name: 'Authentication is expected but can be bypassed',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:N/SC:N/SI:N/SA:N', score: 9.3 },
      classifications: { owasp: 'API2:2023 Broken Authentication' },
    },
  ],
  dependsOn: ['auth.baseline'],
  appliesTo: (operation) => (operation.credential ? true : 'operation has no credential to bypass'),
  async run(ctx) {
    const facts = readBaseline(ctx);
    const { credential, noCredential } = facts.statuses;
    if (!facts.requiresCredential && noCredential < 400) {
      ctx.report(ISSUE, {
        detail: `a request without credential got ${noCredential}, like the one with the credential (${credential})`,
      });
    }
  },
});
