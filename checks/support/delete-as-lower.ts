/**
 * bfla.admin_operation on a staff-only DELETE: a privileged scan identity (`--identity staff:admin=…`, a role ranked
 * above the first identity's) creates an object for the scan through the resource's create, then the first (ordinary)
 * identity sends the DELETE on it; the privileged identity's read-back shows whether it is gone. Nobody's object but
 * the scan's own is ever at stake, so no `--allow-destructive` is needed; what the ordinary identity could not delete
 * its creator deletes after the scan (scanner/model/clean-up.ts).
 */
import type { CheckContext, FindingEvidence, ModelIdentity } from '../../scanner/api.js';

const ok = (status: number): boolean => status >= 200 && status < 300;
const gone = (status: number): boolean => status === 404 || status === 410;

/** The most privileged scan identity ranked above the first, if any. */
function privilegedIdentity(ctx: CheckContext): ModelIdentity | undefined {
  const level = ctx.model.identity('first')?.level ?? 1;
  return [...ctx.model.identities].filter((i) => i.level > level).sort((a, b) => b.level - a.level)[0];
}

export async function deleteAsLower(ctx: CheckContext): Promise<FindingEvidence | undefined> {
  const operation = ctx.operation;
  const staff = privilegedIdentity(ctx);
  if (!staff)
    return ctx.skip(
      "a staff-only DELETE is tried only on an object a privileged identity created for the scan, and the scan has none: give one with --identity staff:admin='Authorization: Bearer …'",
    );
  const place = ctx.model.placeOf(operation);
  if (!place)
    return ctx.skip('the API model does not place this DELETE (no description): nothing of the scan to delete');
  const resource = place.resource.name;
  const create = ctx.model.operationsOf(resource, 'create')[0];
  if (!create) return ctx.skip(`no operation creates a ${resource}: ${staff.name} has nothing to create for the test`);
  const made = ctx.model.requestAs(create, staff.name, { fresh: true });
  if (made.missing.length > 0)
    return ctx.skip(`${create.id} as ${staff.name} needs ${made.missing.map((r) => r.name).join(', ')} of its own`);
  const created = await ctx.http.send({
    ...made.probe,
    method: create.method,
    headers: { 'Content-Type': 'application/json' },
  });
  const present = ctx.model
    .created()
    .some((o) => o.resource === resource && o.creator === staff.name && o.state === 'present');
  if (!ok(created.status) || !present)
    return ctx.skip(
      `${staff.name}'s ${create.id} got ${created.status}${ok(created.status) ? ' without naming what it created' : ''}: no object of the scan's to delete`,
    );
  const request = ctx.model.requestAs(operation, staff.name, { preferCreated: true });
  if (request.missing.length > 0)
    return ctx.skip(`the DELETE needs ${request.missing.map((r) => r.name).join(', ')} of ${staff.name}'s`);
  const target = ctx.model.targetOf(operation, { url: request.probe.url }, staff.name);
  if (!target) return ctx.skip('the DELETE names no object the model can read back');
  const before = await ctx.model.readBack(ctx.http, target, { write: operation, as: staff.name });
  if (!before.object)
    return ctx.skip(`${staff.name} cannot read the object it created back: whether it is gone could not be seen`);
  const lower = await ctx.http.send({ url: request.probe.url, as: 'first' });
  if (!ok(lower.status)) return undefined;
  const after = await ctx.model.readBack(ctx.http, target, { write: operation, as: staff.name });
  const shown = after.tried[0];
  if (after.object || !shown || !gone(shown.status)) return undefined;
  const what = `${operation.method.toUpperCase()} ${new URL(request.probe.url).pathname}`;
  return {
    detail:
      `the first (ordinary) identity deleted a ${resource} that ${staff.name} (${staff.role}) created for the scan ` +
      `(${what} → ${lower.status}; ${shown.oracle.describe} now answers ${shown.status}): a staff-only destructive operation any user may call`,
    steps: [
      { attempt: created, role: `${create.id} by ${staff.name} (the object to delete)` },
      { attempt: before.response!, role: `read by ${staff.name} before` },
      { attempt: lower, role: `${what} by the first (ordinary) identity` },
      { attempt: shown.response, role: `read-back by ${staff.name}` },
    ],
    oracle: { kind: shown.oracle.kind, operation: shown.oracle.operation.id, attempts: [shown.response] },
  };
}
