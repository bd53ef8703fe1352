/**
 * bola.modify — broken object level authorization (OWASP API1:2023) on writes: a second identity changes, acts on or
 * deletes an object of the first. Needs `--as-other 'Authorization: Bearer <token of another user>'`
 * (ctx.options.asOther), a user who must not touch the scanned user's objects. Runs on POST/PUT/PATCH/DELETE
 * operations that address an object (a path parameter, or an id-like URL segment: checks/support/object-reference.ts).
 *
 * Request: 1, the operation as given (same body) as the second identity (the scan's credential removed, the
 * --as-other header added). auth.baseline has already sent it as the first identity.
 * Verdict: failed when the first identity's request was answered 2xx (auth.baseline) and the second identity's is
 * 2xx too; passed on anything else (404/403 — or 409/422, which change nothing). Skipped without --as-other, on
 * endpoints that need no credential and when the first identity's own write was not 2xx. A DELETE that auth.baseline
 * already performed leaves nothing for the second identity to delete: such a pass proves less than a 404 does.
 */
import { defineCheck } from '../scanner/api.js';
import { requireProtectedEndpoint } from './support/auth-baseline-facts.js';
import { referencesObject } from './support/object-reference.js';
import { asOther, otherIdentity } from './support/other-identity.js';
import { AS_OTHER } from './support/shared-options.js';

const ISSUE = 'broken_object_level_authorization.modify';
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const ok = (status: number): boolean => status >= 200 && status < 300;

export default defineCheck({
  id: 'bola.modify',
  name: 'Broken Object Level Authorization (modify)',
  issues: [
    {
      id: ISSUE,
      name: "Another identity can modify this identity's object",
      url: 'https://owasp.org/API-Security/editions/2023/en/0xa1-broken-object-level-authorization/',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:L/UI:N/VC:N/VI:H/VA:N/SC:N/SI:N/SA:N', score: 7.1 },
      classifications: { owasp: 'API1:2023 Broken Object Level Authorization', cwe: 'CWE-639: Authorization Bypass Through User-Controlled Key' },
    },
  ],
  maxCvss: 7.1,
  options: [AS_OTHER],
  dependsOn: ['auth.baseline'],
  scanKinds: ['curl', 'openapi'],
  appliesTo: (operation) => {
    if (!operation.credential) return 'operation has no credential';
    if (!WRITES.has(operation.method.toUpperCase())) return 'not a write (POST/PUT/PATCH/DELETE): bola.read covers reads';
    return referencesObject(operation);
  },
  async run(ctx) {
    const other = otherIdentity(ctx);
    const facts = requireProtectedEndpoint(ctx);
    if (!ok(facts.statuses.credential)) return ctx.skip(`the first identity's own request got ${facts.statuses.credential}: nothing to compare with`);
    const theirs = await ctx.http.send(asOther(other));
    if (ok(theirs.status)) {
      ctx.report(ISSUE, { detail: `the --as-other identity (${other.name}) got ${theirs.status} for ${ctx.operation.method} on the first identity's object`, attempt: theirs });
    }
  },
});
