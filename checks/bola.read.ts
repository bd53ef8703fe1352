/**
 * bola.read — broken object level authorization (OWASP API1:2023): a second identity reads an object of the first.
 * Needs `--as-other 'Authorization: Bearer <token of another user>'` (ctx.options.asOther): a user who must not see
 * the scanned user's objects (another organization or tenant). Runs on GET operations that address an object (a path
 * parameter, or an id-like URL segment: checks/support/object-reference.ts); in OpenAPI scans the ids come from the
 * first identity's data, so the object is theirs.
 *
 * Requests: 2, the operation as given: 1) as the first identity (the scan's credential), 2) as the second identity
 * (the scan's credential removed, the --as-other header added).
 * Verdict: failed when both answers are 2xx and the second is the same object (checks/support/same-object.ts: equal
 * body, equal JSON, or JSON objects with the same `id`), provided the first answer carries data (two empty lists
 * prove nothing). Passed otherwise (404/403 for the other identity, or a different object such as their own profile).
 * Skipped without --as-other, on endpoints that need no credential (auth.baseline: everyone may read them) and when
 * the first identity itself gets no 2xx.
 */
import { defineCheck } from '../scanner/api.js';
import { requireProtectedEndpoint } from './support/auth-baseline-facts.js';
import { referencesObject } from './support/object-reference.js';
import { asOther, otherIdentity } from './support/other-identity.js';
import { carriesData, sameObject } from './support/same-object.js';
import { AS_OTHER } from './support/shared-options.js';

const ISSUE = 'broken_object_level_authorization.read';
const ok = (status: number): boolean => status >= 200 && status < 300;

export default defineCheck({
  id: 'bola.read',
  name: 'Broken Object Level Authorization (read)',
  issues: [
    {
      id: ISSUE,
      name: "Another identity can read this identity's object",
      url: 'https://owasp.org/API-Security/editions/2023/en/0xa1-broken-object-level-authorization/',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:L/UI:N/VC:H/VI:N/VA:N/SC:N/SI:N/SA:N', score: 7.1 },
      classifications: { owasp: 'API1:2023 Broken Object Level Authorization', cwe: 'CWE-639: Authorization Bypass Through User-Controlled Key' },
    },
  ],
  maxCvss: 7.1,
  options: [AS_OTHER],
  dependsOn: ['auth.baseline'],
  scanKinds: ['curl', 'openapi'],
  appliesTo: (operation) => {
    if (!operation.credential) return 'operation has no credential';
    if (operation.method.toUpperCase() !== 'GET') return 'not a read (GET): bola.modify covers writes';
    return referencesObject(operation);
  },
  async run(ctx) {
    const other = otherIdentity(ctx);
    requireProtectedEndpoint(ctx);
    const own = await ctx.http.send();
    if (!ok(own.status)) return ctx.skip(`the first identity gets ${own.status} for this object: nothing of theirs to read`);
    if (!carriesData(own.body)) return ctx.skip("the first identity's answer carries no data to recognise");
    const theirs = await ctx.http.send(asOther(other));
    if (ok(theirs.status) && sameObject(own.body, theirs.body)) {
      ctx.report(ISSUE, { detail: `the --as-other identity (${other.name}) got the first identity's object (${theirs.status})`, attempt: theirs });
    }
  },
});
