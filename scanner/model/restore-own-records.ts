/**
 * After the checks, each scan identity's own record is set back to what its me-like read showed before them
 * (docs/architecture.md §2.8, "what a check changes it restores"): a check that sent an update of the caller's own
 * record as given (auth.baseline's PATCH /me with the description's example display name), or an input probe in one of
 * its fields, left it changed. One read per identity; one update, of just the changed fields, when any changed.
 */
import type { Operation, ProbeResponse } from '../api.js';
import { answerItems, answerObject, identifyingFields, scalar } from './answer-objects.js';
import type { ApiDescription } from './describe-api.js';
import type { ScanIdentity } from './identities.js';
import { parseJson } from './json-pointer.js';
import type { ModelSend } from './scan-model.js';

export interface OwnRestore {
  identity: string;
  operation: string;
  fields: string[];
  status?: number;
  restored: boolean;
  /** What the fields were before the scan (JSON), for the warning a failed restore gives; not in the report. */
  was?: Record<string, string>;
}

const ok = (r: ProbeResponse | undefined): boolean => r !== undefined && r.status >= 200 && r.status < 300;

/** The item of a (leaking) list answer that is the same record: one of its identifying values matches. */
function sameRecord(answer: unknown, record: Record<string, unknown>): Record<string, unknown> | undefined {
  const single = answerObject(answer);
  if (single && !answerItems(answer)) return single;
  const keys = identifyingFields(record);
  return answerItems(answer)?.find((item) => keys.some(([field, value]) => scalar(item[field]) === value));
}

export async function restoreOwnRecords(
  description: ApiDescription,
  identities: readonly ScanIdentity[],
  send: ModelSend,
): Promise<OwnRestore[]> {
  const updates = description.operations.filter((op: Operation) => {
    const place = description.placeOf(op);
    return place?.self === true && place.role === 'update' && ['PATCH', 'PUT'].includes(op.method.toUpperCase());
  });
  const done: OwnRestore[] = [];
  for (const identity of identities) {
    if (!identity.own) continue;
    const { read, record } = identity.own;
    for (const update of updates) {
      const fields = description
        .shapeOf(update)
        .fields.filter((f) => f.in === 'body' && f.pointer === `/${f.name}` && scalar(record[f.name]) !== undefined)
        .map((f) => f.name);
      if (fields.length === 0) continue;
      const now = await send(read, { url: read.url }, identity).catch(() => undefined);
      const current = ok(now) ? sameRecord(parseJson(now!.body), record) : undefined;
      if (!current) continue;
      const changed = fields.filter((f) => scalar(current[f]) !== scalar(record[f]));
      if (changed.length === 0) continue;
      const body = JSON.stringify(Object.fromEntries(changed.map((f) => [f, record[f]])));
      const answer = await send(
        update,
        { url: update.url, body, headers: { 'Content-Type': 'application/json' }, restores: true },
        identity,
      ).catch(() => undefined);
      done.push({
        identity: identity.name,
        operation: update.id,
        fields: changed,
        ...(answer ? { status: answer.status } : {}),
        restored: ok(answer),
        was: Object.fromEntries(changed.map((f) => [f, JSON.stringify(record[f])])),
      });
    }
  }
  return done;
}
