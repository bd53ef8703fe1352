/**
 * bfla.admin_operation — broken function level authorization (OWASP API5:2023): an administrative-looking operation
 * (a path segment such as `admin`, `internal`, `management`, or an operationId/tag naming administration:
 * checks/support/admin-operation.ts) answers an ordinary user. Scan with an ordinary (non-admin) user's credential:
 * that credential is the "ordinary token" this check judges.
 *
 * Request: 1, the operation as given with the scan's credential.
 * Verdict: failed when the answer is 2xx while auth.baseline saw the request without a credential rejected (the
 * operation is protected, yet any authenticated user gets in); passed on 403/404 or any other non-2xx. Skipped on a
 * 401 (the credential itself is invalid), on operations that need no credential (public by design) and on
 * non-administrative operations.
 * A DELETE (OpenAPI scans) is not sent as given: a privileged scan identity (`--identity staff:admin=…`) creates an
 * object for it, the ordinary identity deletes it, the privileged one's read-back shows it gone
 * (support/delete-as-lower.ts); without a privileged identity it is skipped with that reason.
 */
import { defineCheck } from '../scanner/api.js';
import { readBaseline } from './support/auth-baseline-facts.js';
import { deleteAsLower } from './support/delete-as-lower.js';
import { answerStatus } from './support/graphql-answer.js';
import { looksAdministrative } from './support/admin-operation.js';

const ISSUE = 'broken_function_level_authorization.admin_operation';

export default defineCheck({
  id: 'bfla.admin_operation',
  name: 'Broken Function Level Authorization (admin operation)',
  issues: [
    {
      id: ISSUE,
      name: 'Administrative operation is reachable with an ordinary token',
      url: 'https://owasp.org/API-Security/editions/2023/en/0xa5-broken-function-level-authorization/',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:L/UI:N/VC:H/VI:H/VA:N/SC:N/SI:N/SA:N', score: 8.6 },
      classifications: {
        owasp: 'API5:2023 Broken Function Level Authorization',
        cwe: 'CWE-285: Improper Authorization',
      },
    },
  ],
  rerunsAsRaised: true,
  dependsOn: ['auth.baseline'],
  appliesTo: (operation) => (operation.credential ? looksAdministrative(operation) : 'operation has no credential'),
  async run(ctx) {
    // A staff-only DELETE is never sent as given: it runs on an object a privileged identity created for the scan.
    if (ctx.operation.method.toUpperCase() === 'DELETE' && !ctx.model.given) {
      const evidence = await deleteAsLower(ctx);
      if (evidence) ctx.report(ISSUE, evidence);
      return;
    }
    const facts = readBaseline(ctx);
    if (!facts.requiresCredential)
      ctx.skip(`endpoint does not require a credential (a request without one got ${facts.statuses.noCredential})`);
    const response = await ctx.http.send();
    // GraphQL: the status the answer stands for (a 200 carrying "forbidden" is a 403: support/graphql-answer.ts).
    const status = answerStatus(response, ctx.operation);
    // 401 says the credential itself is invalid, not that the function is refused to this user (RFC 9110 §15.5.2).
    if (status === 401) ctx.skip('the supplied credential is rejected (401): scan with a valid ordinary token');
    if (status >= 200 && status < 300) {
      const what = ctx.operation.graphql?.field
        ? ctx.operation.id
        : `${ctx.operation.method} ${new URL(ctx.operation.url).pathname}`;
      ctx.report(ISSUE, {
        detail: `${what} answered ${status} to the scan's ordinary credential`,
        attempt: response,
      });
    }
  },
});
