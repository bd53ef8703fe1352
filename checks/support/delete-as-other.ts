/**
 * bola.modify on a DELETE: the second identity deletes an object of the first's that the scan itself created (the only
 * kind a scan may delete without --allow-destructive: docs/architecture.md §2.6) — one the first identity created
 * earlier in the scan, else one it creates now through the resource's create with fresh keys — and the first
 * identity's read-back shows it gone. In curl scans, the object the user's own URL names (sent only with
 * --allow-destructive). What the second identity could not delete is deleted after the scan by its creator.
 */
import type { CheckContext, FindingEvidence, ProbeRequest } from '../../scanner/api.js';
import { objectUnderTest } from './owner-read.js';

const ok = (status: number): boolean => status >= 200 && status < 300;
const gone = (status: number): boolean => status === 404 || status === 410;

/** The DELETE as the first identity would send it on an object the scan created for it (created here if need be). */
async function ownCreatedTarget(ctx: CheckContext): Promise<(ProbeRequest & { url: string }) | string> {
  const operation = ctx.operation;
  const place = ctx.model.placeOf(operation)!;
  const resource = place.resource.name;
  const mine = (): boolean =>
    ctx.model.created().some((o) => o.resource === resource && o.creator === 'first' && o.state === 'present');
  if (!mine()) {
    const create = ctx.model.operationsOf(resource, 'create')[0];
    if (!create) return `no object of the scan's own to delete, and no operation creates a ${resource}`;
    const request = ctx.model.requestAs(create, 'first', { fresh: true });
    if (request.missing.length > 0)
      return `no object of the scan's own to delete: creating one (${create.id}) needs ${request.missing.map((r) => r.name).join(', ')} of the first identity's`;
    const made = await ctx.http.send({
      ...request.probe,
      method: create.method,
      headers: { 'Content-Type': 'application/json' },
    });
    if (!ok(made.status) || !mine())
      return `no object of the scan's own to delete: the first identity's ${create.id} got ${made.status}${ok(made.status) ? ' without naming what it created' : ''}`;
  }
  const request = ctx.model.requestAs(operation, 'first', { preferCreated: true });
  if (request.missing.length > 0)
    return `the DELETE needs ${request.missing.map((r) => r.name).join(', ')} of the first identity's`;
  return request.probe;
}

export async function deleteAsOther(ctx: CheckContext): Promise<FindingEvidence | undefined> {
  const operation = ctx.operation;
  let url = operation.url;
  if (!ctx.model.given) {
    const own = await ownCreatedTarget(ctx);
    if (typeof own === 'string') return ctx.skip(own);
    url = own.url;
  }
  const object = objectUnderTest({ ...ctx, operation: { ...operation, url } });
  if (typeof object === 'string') return ctx.skip(object);
  const before = await object.read();
  if (!before.object) return ctx.skip(`the first identity cannot read the object back (${object.unreadable()})`);
  const theirs = await ctx.http.send({ url, as: 'other' });
  if (!ok(theirs.status)) return undefined;
  const after = await object.read();
  if (!gone(after.response.status)) {
    ctx.log.debug(
      `DELETE by the other identity got ${theirs.status} but the object still answers ${after.response.status}`,
    );
    return undefined;
  }
  return {
    detail: `the --as-other identity deleted the first identity's object (${object.describe}; DELETE ${theirs.status}; the owner's read-back now gets ${after.response.status}); a deleted object cannot be restored${ctx.model.given ? '' : ' (it was one the scan created for this proof)'}`,
    steps: [
      { attempt: theirs, role: 'DELETE by the --as-other identity' },
      { attempt: after.response, role: 'read-back by the owner (the first identity)' },
    ],
    ...(after.oracle
      ? { oracle: { kind: after.oracle.kind, operation: after.oracle.operation, attempts: [after.response] } }
      : {}),
  };
}
