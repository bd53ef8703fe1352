/**
 * How a check reads back the object a write of the first identity's names, as that identity: through the API model's
 * oracles when the model knows the object (the write's own path, its parent's read, a linked read, /me, the list), else
 * (curl scans) the URL the write addresses. Each read says which oracle answered, for `evidence.oracle`.
 */
import type { CheckContext, JsonObject, ObjectTarget, OracleKind, ProbeResponse } from '../../scanner/api.js';
import { objectUrl } from './object-reference.js';

interface OwnerRead {
  response: ProbeResponse;
  /** The object the answer shows (undefined: the read answered, but not with it). */
  object?: JsonObject;
  /** The oracle that answered, when the model's. */
  oracle?: { kind: OracleKind; operation: string; describe: string };
}

export interface ObjectUnderTest {
  /** What the object is, for details (`user username=alice`, `GET /orders/ord_1`). */
  describe: string;
  /** The model's target, when it knows the object. */
  target?: ObjectTarget;
  /** Reads it as `as` (its owner, the first identity, by default); the same oracle every time once one answered. */
  read(as?: string): Promise<OwnerRead>;
  /** Why it cannot be read (every oracle tried and its status), once `read` found nothing. */
  unreadable(): string;
}

function parseObject(body: string): JsonObject | undefined {
  try {
    const value = JSON.parse(body) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : undefined;
  } catch {
    return undefined;
  }
}

/** The object the operation (as the first identity sends it) acts on, or a reason it names none the model knows. */
export function objectUnderTest(ctx: CheckContext): ObjectUnderTest | string {
  const operation = ctx.operation;
  const target = ctx.model.given
    ? undefined
    : ctx.model.targetOf(operation, { url: operation.url, ...(operation.body ? { body: operation.body } : {}) });
  if (!target && !ctx.model.given && ctx.model.references(operation).length > 0)
    return 'the model knows no object this request names';
  if (!target) {
    // Curl scans, or an operation the description does not place: the URL the write addresses, read as given.
    const url = objectUrl(operation);
    let last: ProbeResponse | undefined;
    return {
      describe: `GET ${new URL(url).pathname}`,
      async read(as) {
        last = await ctx.http.send({ method: 'GET', url, body: null, ...(as ? { as } : {}) });
        const ok = last.status >= 200 && last.status < 300;
        return { response: last, ...(ok ? { object: parseObject(last.body) ?? {} } : {}) };
      },
      unreadable: () => `GET ${new URL(url).pathname} → ${last?.status ?? 'not sent'}`,
    };
  }
  let chosen: OwnerRead['oracle'] | undefined;
  let tried = 'no read of its resource, no list and no me-like read';
  return {
    describe: `${target.resource} ${Object.entries(target.keys)
      .map(([k, v]) => `${k}=${v}`)
      .join(', ')}`,
    target,
    async read(as) {
      const found = await ctx.model.readBack(ctx.http, target, { write: operation, ...(as ? { as } : {}) });
      if (found.oracle && found.response) {
        chosen ??= { kind: found.oracle.kind, operation: found.oracle.operation.id, describe: found.oracle.describe };
        return { response: found.response, ...(found.object ? { object: found.object } : {}), oracle: chosen };
      }
      if (found.tried.length > 0) tried = found.tried.map((t) => `${t.oracle.describe} → ${t.status}`).join('; ');
      // None showed the object: the first oracle's answer stands for "not readable" (a 404 after a DELETE, a 403).
      const first = found.tried[0];
      if (!first) throw new Error(`no oracle reads ${target.resource}`);
      chosen ??= { kind: first.oracle.kind, operation: first.oracle.operation.id, describe: first.oracle.describe };
      return { response: first.response, oracle: chosen };
    },
    unreadable: () => tried,
  };
}
