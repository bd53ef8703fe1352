/**
 * bola.modify — broken object level authorization (OWASP API1:2023) on writes: a second identity changes or deletes
 * an object of the first, and the first identity sees the change. Needs `--as-other 'Authorization: Bearer <token of
 * another user>'` (ctx.options.asOther), a user who must not touch the scanned user's objects. Runs on PUT/PATCH/POST/
 * DELETE operations that address an object (a path parameter, or an id-like URL segment:
 * checks/support/object-reference.ts).
 *
 * Ownership: the object is the first identity's — the URL was given with its credential (curl), or its ids were read
 * from the first identity's own responses (OpenAPI `objectIds`; an operation with a generated id is skipped), and the
 * first identity reads it (2xx with data) before anything is written. Writes to the caller's own record are never
 * BOLA: `PUT /me/profile` names no object, and a write that the server applies to the caller's own record instead of
 * the addressed one leaves the first identity's object unchanged, which the read-back shows.
 * Requests (PUT/PATCH/POST): 1) GET the object as the first identity; 2) the write as the second identity, its JSON
 * body with one field set to a marker (checks/support/write-marker.ts; derived from the operation id, so runs repeat); 3) only if 2 is 2xx, GET the object as
 * the first identity again; 4) only if the marker shows, the write as the first identity with the field's original
 * value (restore; PUT/PATCH only — a POST repeated may act again). DELETE: 1) GET as the first identity; 2) DELETE
 * as the second; 3) only if 2xx, GET as the first. An accepted write that lands on the second identity's own record
 * leaves the marker there: the scan cannot know that record's earlier value.
 * Verdict: failed when the second identity's write is 2xx and the first identity's read-back shows the marker (or,
 * for DELETE, the object is gone: 404/410); the evidence cites the write, the read-back and the restore, and the detail
 * says whether the value was restored. Passed otherwise (403/404 for the other identity, or an accepted write that did
 * not change the first identity's object). Skipped without --as-other, on endpoints that need no credential, when the
 * first identity's own write was not 2xx, when it cannot read the object back, and when the body has no field a
 * marker can be written to.
 */
import { defineCheck, type ProbeResponse } from '../scanner/api.js';
import { requireProtectedEndpoint } from './support/auth-baseline-facts.js';
import { inventedIds, objectUrl, referencesObject } from './support/object-reference.js';
import { asOther, otherIdentity } from './support/other-identity.js';
import { carriesData } from './support/same-object.js';
import { AS_OTHER } from './support/shared-options.js';
import { markedWrite, restoringBody, showsMarker, valueOf } from './support/write-marker.js';

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
      classifications: {
        owasp: 'API1:2023 Broken Object Level Authorization',
        cwe: 'CWE-639: Authorization Bypass Through User-Controlled Key',
      },
    },
  ],
  options: [AS_OTHER],
  dependsOn: ['auth.baseline'],
  scanKinds: ['curl', 'openapi'],
  appliesTo: (operation) => {
    if (!operation.credential) return 'operation has no credential';
    if (!WRITES.has(operation.method.toUpperCase()))
      return 'not a write (POST/PUT/PATCH/DELETE): bola.read covers reads';
    return referencesObject(operation);
  },
  async run(ctx) {
    const other = otherIdentity(ctx);
    const facts = requireProtectedEndpoint(ctx);
    if (!ok(facts.statuses.credential))
      return ctx.skip(`the first identity's own request got ${facts.statuses.credential}: nothing to compare with`);
    const invented = inventedIds(ctx.operation);
    if (invented.length > 0) {
      return ctx.skip(
        `no id of the first identity's for ${invented.map((n) => `{${n}}`).join(', ')} (none in its responses): a generated id names nobody's object`,
      );
    }
    const method = ctx.operation.method.toUpperCase();
    const readUrl = objectUrl(ctx.operation);
    const readAsOwner = (): Promise<ProbeResponse> => ctx.http.send({ method: 'GET', url: readUrl, body: null });

    const before = await readAsOwner();
    if (!ok(before.status) || !carriesData(before.body)) {
      return ctx.skip(
        `the first identity cannot read the object back (GET ${new URL(readUrl).pathname} → ${before.status}${ok(before.status) ? ', no data' : ''}): a write's effect could not be seen`,
      );
    }

    if (method === 'DELETE') {
      const theirs = await ctx.http.send(asOther(other));
      if (!ok(theirs.status)) return;
      const after = await readAsOwner();
      if (after.status !== 404 && after.status !== 410)
        return ctx.log.debug(
          `DELETE by the other identity got ${theirs.status} but the object still answers ${after.status}`,
        );
      return ctx.report(ISSUE, {
        detail: `the --as-other identity (${other.name}) deleted the first identity's object (DELETE ${theirs.status}; the owner's read-back now gets ${after.status}); a deleted object cannot be restored`,
        steps: [
          { attempt: theirs, role: 'DELETE by the --as-other identity' },
          { attempt: after, role: 'read-back by the owner (the first identity)' },
        ],
      });
    }

    const write = markedWrite(ctx.operation.body, ctx.operation.id, before.body);
    if (!write)
      return ctx.skip(
        'the request body has no JSON field a recognisable value can be written to (give a JSON body with a text or integer field)',
      );
    const theirs = await ctx.http.send({ ...asOther(other), body: write.body });
    if (!ok(theirs.status)) return;
    const after = await readAsOwner();
    if (!ok(after.status) || !showsMarker(after.body, write)) {
      // Accepted, but the owner's object did not change: the server wrote the caller's own record, or nothing.
      return ctx.log.debug(
        `the other identity's ${method} got ${theirs.status} but the first identity's object does not show the change`,
      );
    }

    const original = valueOf(before.body, write.field);
    let restore: ProbeResponse | undefined;
    let restored: string;
    if (method === 'POST') {
      restored = `not restored: repeating a POST with the old value may act again rather than undo (the object keeps "${write.field}" = ${JSON.stringify(write.marker)})`;
    } else if (original === undefined) {
      restored = `not restored: the first identity's earlier read did not show "${write.field}"`;
    } else {
      restore = await ctx.http.send({ body: restoringBody(ctx.operation.body!, write, original) });
      restored = ok(restore.status)
        ? `restored "${write.field}" to its earlier value as the first identity (${restore.status})`
        : `restoring "${write.field}" as the first identity failed (${restore.status}): the object still holds the marker`;
    }
    ctx.report(ISSUE, {
      detail:
        `the --as-other identity (${other.name}) changed "${write.field}" of the first identity's object to ${JSON.stringify(write.marker)} ` +
        `(${method} ${theirs.status}) and the owner's read-back shows it (GET ${after.status}); ${restored}`,
      steps: [
        { attempt: theirs, role: `${method} by the --as-other identity` },
        { attempt: after, role: 'read-back by the owner (the first identity)' },
        ...(restore
          ? [{ attempt: restore, role: `restore by the owner (${method} with the earlier "${write.field}")` }]
          : []),
      ],
    });
  },
});
