/**
 * discover.accept_unauthenticated — Info: the operation is scanned without any credential, so it may accept
 * unauthenticated requests. Sends nothing. Verdict (as VulnAPI): failed when the operation has no credential.
 */
import { defineCheck } from '../scanner/api.js';

const ISSUE = 'discover.accept_unauthenticated_operation';

export default defineCheck({
  id: 'discover.accept_unauthenticated',
  name: 'Accept Unauthenticated Operation',
  issues: [
    {
      id: ISSUE,
      name: 'Operation May Accept Unauthenticated Requests',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:N/VI:N/VA:N/SC:N/SI:N/SA:N', score: 0 },
      classifications: { owasp: 'API2:2023 Broken Authentication' },
    },
  ],
  async run(ctx) {
    if (!ctx.operation.credential)
      ctx.report(ISSUE, { detail: 'no credential was given or detected for this operation' });
  },
});
