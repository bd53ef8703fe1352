/**
 * bola.modify — broken object level authorization (OWASP API1:2023) on writes: a second identity changes or deletes an
 * object of the first, and the first identity sees the change. Needs a second identity (`--as-other 'Authorization:
 * Bearer <token of another user>'`, or `--identity other=…`), a user who must not touch the scanned user's objects.
 * Runs on PUT/PATCH/POST/DELETE operations that name an object — in the path, the query or the body (a profile update
 * whose body names the user): the API model's references (scanner/model/references.ts), or in curl scans a path
 * parameter or an id-like URL segment (checks/support/object-reference.ts).
 *
 * Ownership: the object is the first identity's — the model filled the request with its own values (its record, its
 * own lists, objects the scan created for it), or the user typed it with its credential (curl) — and the first
 * identity reads it back (an oracle: the write's own path, its parent's read, a linked read, its me-like read, the
 * list) before anything is written. A write on the caller's own record that names no object (`PATCH /me`) is never
 * BOLA: another identity sending it changes its own.
 * Requests (PUT/PATCH/POST): 1) read the object as the first identity; 2) the write as the second identity, its JSON
 * body with one field set to a marker (checks/support/write-marker.ts; derived from the operation id, so runs repeat),
 * the object still named by the first identity's values; 3) only if 2 is 2xx, the read again; 4) only if the marker
 * shows, the write as the first identity with the field's earlier value (restore; PUT/PATCH only — a POST repeated
 * may act again). A password or e-mail change (checks/support/credential-change.ts): the second identity sets a value
 * of the scan's, proven by signing in with it (oracle `login`) or reading it back, then set back as the first identity
 * — only when the scan signs the first identity in itself (else skipped: it could not be undone). DELETE: on an object
 * the scan created as the first identity (created first when none exists: the resource's create with fresh keys),
 * 1) DELETE as the second; 2) only if 2xx, the first identity's read; what stays is deleted after the scan.
 * Verdict: failed when the second identity's write is 2xx and the first identity's read-back shows the marker (or,
 * for DELETE, the object is gone: 404/410); the evidence names the oracle and cites the write, the read-back and the
 * restore. Passed otherwise. Skipped without a second identity, on endpoints that need no credential, when the first
 * identity's own write was not 2xx, when the object is not the first identity's or cannot be read back, and when the
 * body has no field a marker can be written to.
 */
import { defineCheck, type CheckContext, type FindingEvidence, type ProbeResponse } from '../scanner/api.js';
import { requireProtectedEndpoint } from './support/auth-baseline-facts.js';
import { changeCredential } from './support/credential-change.js';
import { deleteAsOther } from './support/delete-as-other.js';
import { referencesObject } from './support/object-reference.js';
import { otherIdentity } from './support/other-identity.js';
import { objectUnderTest, type ObjectUnderTest } from './support/owner-read.js';
import { carriesData } from './support/same-object.js';
import { AS_OTHER, IDENTITY } from './support/shared-options.js';
import { markedWrite, restoringBody, showsMarker, valueOf } from './support/write-marker.js';

const ISSUE = 'broken_object_level_authorization.modify';
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const ok = (status: number): boolean => status >= 200 && status < 300;

/** Whether the operation names an object another identity could name too (not just "the caller's own record"). */
function namesObject(ctx: CheckContext): true | string {
  const operation = ctx.operation;
  const place = ctx.model.placeOf(operation);
  if (!place || ctx.model.given) return referencesObject(operation);
  const refs = ctx.model.references(operation).filter((r) => !r.creates && !r.credential);
  if (refs.length > 0) return true;
  return place.self
    ? "acts on the sender's own record and names no object: another identity sending it changes its own"
    : 'names no object (no path parameter, query parameter or body field names one)';
}

async function markedChange(ctx: CheckContext, object: ObjectUnderTest): Promise<FindingEvidence | undefined> {
  const operation = ctx.operation;
  const method = operation.method.toUpperCase();
  const before = await object.read();
  if (!before.object || !carriesData(before.response.body))
    return ctx.skip(
      `the first identity cannot read the object back (${object.unreadable()}): a write's effect could not be seen`,
    );
  const write = markedWrite(operation.body, operation.id, before.response.body);
  if (!write)
    return ctx.skip(
      'the request body has no JSON field a recognisable value can be written to (give a JSON body with a text or integer field)',
    );
  const theirs = await ctx.http.send({ body: write.body, as: 'other' });
  if (!ok(theirs.status)) return undefined;
  const after = await object.read();
  if (!ok(after.response.status) || !showsMarker(after.response.body, write)) {
    // Accepted, but the owner's object did not change: the server wrote the caller's own record, or nothing.
    ctx.log.debug(
      `the other identity's ${method} got ${theirs.status} but the first identity's object does not show the change`,
    );
    return undefined;
  }
  const original = valueOf(before.response.body, write.field);
  let restore: ProbeResponse | undefined;
  let restored: string;
  if (method === 'POST') {
    restored = `not restored: repeating a POST with the old value may act again rather than undo (the object keeps "${write.field}" = ${JSON.stringify(write.marker)})`;
  } else if (original === undefined) {
    restored = `not restored: the first identity's earlier read did not show "${write.field}"`;
  } else {
    restore = await ctx.http.send({ body: restoringBody(operation.body!, write, original) });
    restored = ok(restore.status)
      ? `restored "${write.field}" to its earlier value as the first identity (${restore.status})`
      : `restoring "${write.field}" as the first identity failed (${restore.status}): the object still holds the marker`;
  }
  return {
    detail:
      `the --as-other identity changed "${write.field}" of the first identity's object (${object.describe}) to ${JSON.stringify(write.marker)} ` +
      `(${method} ${theirs.status}) and the owner's read-back shows it (${after.oracle?.describe ?? `GET ${after.response.status}`}); ${restored}`,
    steps: [
      { attempt: theirs, role: `${method} by the --as-other identity` },
      { attempt: after.response, role: 'read-back by the owner (the first identity)' },
      ...(restore
        ? [{ attempt: restore, role: `restore by the owner (${method} with the earlier "${write.field}")` }]
        : []),
    ],
    ...(after.oracle
      ? { oracle: { kind: after.oracle.kind, operation: after.oracle.operation, attempts: [after.response] } }
      : {}),
  };
}

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
  options: [AS_OTHER, IDENTITY],
  dependsOn: ['auth.baseline'],
  scanKinds: ['curl', 'openapi'],
  appliesTo: (operation) => {
    if (!operation.credential) return 'operation has no credential';
    if (!WRITES.has(operation.method.toUpperCase()))
      return 'not a write (POST/PUT/PATCH/DELETE): bola.read covers reads';
    return true;
  },
  async run(ctx) {
    otherIdentity(ctx);
    const names = namesObject(ctx);
    if (names !== true) return ctx.skip(names);
    const method = ctx.operation.method.toUpperCase();
    // A DELETE of the model's API runs on an object the scan creates for it: the operation as given is never sent.
    if (method === 'DELETE' && !ctx.model.given) {
      const evidence = await deleteAsOther(ctx);
      if (evidence) ctx.report(ISSUE, evidence);
      return;
    }
    const facts = requireProtectedEndpoint(ctx);
    if (!ok(facts.statuses.credential))
      return ctx.skip(`the first identity's own request got ${facts.statuses.credential}: nothing to compare with`);
    if (method === 'DELETE') {
      const evidence = await deleteAsOther(ctx);
      if (evidence) ctx.report(ISSUE, evidence);
      return;
    }
    const object = objectUnderTest(ctx);
    if (typeof object === 'string') return ctx.skip(object);
    if (object.target && object.target.owner !== 'first')
      return ctx.skip(
        `the object it names (${object.describe}) is not the first identity's: ${object.target.owner ? `it is ${object.target.owner}'s` : 'no scan identity owns it'}`,
      );
    const credential = ctx.model.references(ctx.operation).find((r) => r.credential && r.in === 'body');
    const evidence = credential ? await changeCredential(ctx, credential, object) : await markedChange(ctx, object);
    if (evidence) ctx.report(ISSUE, evidence);
  },
});
