/**
 * bola.read — broken object level authorization (OWASP API1:2023): a second identity reads an object of the first,
 * or lists them. Needs `--as-other 'Authorization: Bearer <token of another user>'` (ctx.options.asOther): a user who
 * must not see the scanned user's objects (another organization or tenant). Runs on GET operations:
 * - that address an object: a path parameter, an id-like URL segment (checks/support/object-reference.ts), or in curl
 *   scans a last segment naming a member of a plural collection (`/users/alice`). In OpenAPI scans the ids come from
 *   the first identity's own answers and creates (scanner/openapi/object-ids.ts), replacing the description's
 *   examples, so the object is theirs;
 * - on collections (no object in the path) whose answer to the first identity lists objects with ids and an owner
 *   property (owner, userId, createdBy, tenantId…): a directory of users or a catalog is the same for everyone.
 *
 * Requests: 2, the operation as given: 1) as the first identity (the scan's credential), 2) as the second identity
 * (the scan's credential removed, the --as-other header added).
 * Verdict, object: failed when both answers are 2xx and the second is the same object (checks/support/same-object.ts:
 * equal body, equal JSON, or JSON objects with the same `id`), provided the first answer carries data (two empty lists
 * prove nothing). Collection: failed when the second identity's 2xx list holds any object (by id) of the first
 * identity's list — the detail names how many of how many. Passed otherwise (404/403 for the other identity, a
 * different object such as their own profile, or a list of only their own objects).
 * GraphQL scans: query fields with an id argument (`order(id:)`, its value from the first identity's own answers:
 * scanner/graphql/object-ids.ts) are objects, other query fields collections; answers are judged by the status they
 * stand for and compared by the field's data (checks/support/graphql-answer.ts).
 * Skipped without --as-other, on endpoints that need no credential (auth.baseline: everyone may read them), when an
 * OpenAPI path parameter is still a generated value (no object of the first identity's was found to name), when the
 * first identity itself gets no 2xx, and on a collection answer that lists no identified, owned objects.
 */
import { defineCheck, operationClass, type CheckContext, type Operation, type ProbeResponse } from '../scanner/api.js';
import { answerData, answerStatus } from './support/graphql-answer.js';
import { requireProtectedEndpoint } from './support/auth-baseline-facts.js';
import { collectionIds, itemsNameOwner } from './support/collection-items.js';
import { lastSegmentNamesObject, referencesObject } from './support/object-reference.js';
import { asOther, otherIdentity } from './support/other-identity.js';
import { carriesData, sameObject } from './support/same-object.js';
import { AS_OTHER, IDENTITY } from './support/shared-options.js';

const ISSUE = 'broken_object_level_authorization.read';
const ok = (status: number): boolean => status >= 200 && status < 300;

/** A GraphQL field's id arguments (`id`, `orderId`): the object it reads. */
const idArguments = (operation: Operation): string[] =>
  (operation.graphql?.arguments ?? []).filter((a) => /^(id|.+_?(Id|ID))$/.test(a.name)).map((a) => a.name);

const addressesObject = (operation: Operation): boolean =>
  (operation.graphql ? idArguments(operation).length > 0 : false) ||
  referencesObject(operation) === true ||
  (!operation.pathParameters &&
    operation.path === new URL(operation.url).pathname &&
    lastSegmentNamesObject(operation.url));

/** References of the operation (path and query) whose value is no scan identity's object: `{orderId}`. */
function ownedReferences(ctx: CheckContext): string[] {
  const operation = ctx.operation;
  if (ctx.model.given) return [];
  const target = ctx.model.targetOf(operation, { url: operation.url });
  const refs = ctx.model.references(operation).filter((r) => !r.creates && !r.credential && r.in !== 'body');
  if (refs.length === 0) return [];
  return target?.owner === 'first' ? [] : refs.map((r) => (r.in === 'path' ? `{${r.name}}` : `?${r.name}`));
}

export default defineCheck({
  id: 'bola.read',
  name: 'Broken Object Level Authorization (read)',
  issues: [
    {
      id: ISSUE,
      name: "Another identity can read this identity's object",
      url: 'https://owasp.org/API-Security/editions/2023/en/0xa1-broken-object-level-authorization/',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:L/UI:N/VC:H/VI:N/VA:N/SC:N/SI:N/SA:N', score: 7.1 },
      classifications: {
        owasp: 'API1:2023 Broken Object Level Authorization',
        cwe: 'CWE-639: Authorization Bypass Through User-Controlled Key',
      },
    },
  ],
  options: [AS_OTHER, IDENTITY],
  dependsOn: ['auth.baseline'],
  appliesTo: (operation) => {
    if (!operation.credential) return 'operation has no credential';
    if (operation.graphql) {
      if (!operation.graphql.field) return 'the GraphQL endpoint operation reads no object';
      return operation.graphql.kind === 'query' && operationClass(operation) === 'read'
        ? true
        : 'not a query: bola.modify covers writes';
    }
    if (operation.method.toUpperCase() !== 'GET') return 'not a read (GET): bola.modify covers writes';
    return true;
  },
  async run(ctx) {
    otherIdentity(ctx);
    requireProtectedEndpoint(ctx);
    const operation = ctx.operation;
    // The object must be the first identity's own: a description's example (or a generated id) names someone else's.
    const unowned = operation.graphql
      ? idArguments(operation)
          .filter((name) => !operation.objectIds?.[name])
          .map((name) => `$${name}`)
      : ownedReferences(ctx);
    if (unowned.length > 0)
      return ctx.skip(
        `no object of the first identity's to name: ${unowned.join(', ')} is still the description's value (the first identity owns none the scan could find)`,
      );
    const single = addressesObject(operation);
    // GraphQL answers 200 either way: the status an answer stands for, and the field's data, are what count.
    const served = (r: ProbeResponse): boolean => ok(answerStatus(r, operation));
    const data = (r: ProbeResponse): string => answerData(r, operation);
    const own = await ctx.http.send();
    if (!served(own))
      return ctx.skip(
        `the first identity gets ${answerStatus(own, operation)} for this ${single ? 'object' : 'collection'}: nothing of theirs to read`,
      );
    if (single) {
      if (!carriesData(data(own))) return ctx.skip("the first identity's answer carries no data to recognise");
      const theirs = await ctx.http.send(asOther());
      if (served(theirs) && sameObject(data(own), data(theirs))) {
        // No single attempt cited: the first identity's answer and the second's together are the proof.
        ctx.report(ISSUE, {
          detail: `the --as-other identity got the first identity's object (${theirs.status})`,
        });
      }
      return;
    }
    const mine = collectionIds(data(own));
    if (!mine)
      return ctx.skip("neither an object in the path nor a list of identified objects in the first identity's answer");
    // A user directory or a product catalog lists the same objects to everyone by design: only owned objects count.
    if (!itemsNameOwner(data(own)))
      return ctx.skip(
        'the listed objects name no owner (owner, userId, createdBy…): a shared directory cannot be told from a leak',
      );
    const theirs = await ctx.http.send(asOther());
    const listed = served(theirs) ? (collectionIds(data(theirs)) ?? []) : [];
    const shared = mine.filter((id) => listed.includes(id));
    if (shared.length > 0) {
      ctx.report(ISSUE, {
        detail: `the --as-other identity lists ${shared.length} of the first identity's ${mine.length} objects (ids ${shared.slice(0, 5).join(', ')}${shared.length > 5 ? ', …' : ''})`,
      });
    }
  },
});
