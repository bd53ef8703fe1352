/**
 * Object ids for object-level authorization checks (`bola.*`) in OpenAPI scans with `--as-other`: before any check
 * runs, the collections of the description are read as the first identity, and generated path parameters are replaced
 * by ids those responses contain, so `GET /orders/{orderId}` names an order the first identity owns.
 *
 * Requests: one per collection operation, in document order, shortest paths first, each sent once as the operation is
 * (its own credential): a `GET` on the parent path of a path parameter (`/orders` for `/orders/{orderId}`), and a
 * `POST` there only when the `GET` gave no id. At most three rounds, so nested collections (`/orders/{orderId}/lines`)
 * are read once their parent's id is known. Only 2xx JSON answers are read.
 * Ids: in the first object of the answer (the answer itself, its first element when it is an array, or the first
 * element of its first array property, e.g. `{ "items": [...] }`), the field named like the parameter (`orderId`),
 * else `id`, `uuid` or `_id`, when it is a string or a number. A description's example or default is replaced too
 * (examples are often objects that do not exist, and never objects of the first identity); only parameters limited to
 * listed values (`enum`, `const`) are left alone.
 */
import type { Operation, ProbeResponse } from '../api.js';
import { firstObject, idFor, type Item } from './answer-object.js';

export type SendOperation = (operation: Operation) => Promise<ProbeResponse | undefined>;

const MAX_ROUNDS = 3;

/** The template up to (not including) `/{name}`: the collection the parameter picks from. */
function parentTemplate(template: string, name: string): string | undefined {
  const at = template.indexOf(`/{${name}}`);
  return at > 0 ? template.slice(0, at) : undefined;
}

/** Path parameters of an operation that are still waiting for an id (all but those limited to listed values). */
function pending(operation: Operation): { name: string; value: string; given: boolean }[] {
  return (operation.pathParameters ?? []).filter((p) => !p.fixed && !operation.objectIds?.[p.name]);
}

/** The operation with `name` set to `value` in its URL (the segment that held the generated value). */
function withId(operation: Operation, name: string, value: string, from: string): Operation {
  const parameters = operation.pathParameters ?? [];
  const url = new URL(operation.url);
  const segments = url.pathname.split('/');
  const templateSegments = operation.path.split('/');
  const offset = segments.length - templateSegments.length;
  const index = templateSegments.indexOf(`{${name}}`);
  if (index < 0 || offset < 0) return operation;
  segments[offset + index] = encodeURIComponent(value);
  url.pathname = segments.join('/');
  return {
    ...operation,
    url: url.href,
    pathParameters: parameters.map((p) => (p.name === name ? { ...p, value } : p)),
    objectIds: { ...(operation.objectIds ?? {}), [name]: { value, from } },
  };
}

/**
 * The operations with path parameters replaced by ids from the first identity's responses, in the same
 * order. `send` sends an operation as it is and returns its answer (undefined on a transport error).
 */
export async function withObjectIds(operations: Operation[], send: SendOperation): Promise<Operation[]> {
  let current = [...operations];
  const answered = new Map<string, { item: Item; from: string } | null>();
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const wanted = new Set(
      current.flatMap((op) =>
        pending(op)
          .map((p) => parentTemplate(op.path, p.name))
          .filter((t): t is string => Boolean(t)),
      ),
    );
    const unanswered = [...wanted].filter((template) => !answered.has(template));
    if (unanswered.length === 0) break;
    const collections = unanswered
      .map((template) => ({
        template,
        get: current.find((op) => op.path === template && op.method === 'GET' && pending(op).length === 0),
        post: current.find((op) => op.path === template && op.method === 'POST' && pending(op).length === 0),
      }))
      .filter((c) => c.get || c.post)
      .sort((a, b) => a.template.split('/').length - b.template.split('/').length);
    if (collections.length === 0) break;
    for (const { template, get, post } of collections) {
      let found: { item: Item; from: string } | undefined;
      for (const operation of [get, post]) {
        if (!operation || found) continue;
        const response = await send(operation);
        if (!response || response.status < 200 || response.status > 299) continue;
        let item: Item | undefined;
        try {
          item = firstObject(JSON.parse(response.body));
        } catch {
          item = undefined; // not JSON: nothing to read
        }
        if (item) found = { item, from: operation.id };
      }
      answered.set(template, found ?? null);
    }
    current = current.map((operation) => {
      let next = operation;
      for (const parameter of pending(operation)) {
        const template = parentTemplate(operation.path, parameter.name);
        const found = template ? answered.get(template) : undefined;
        const id = found ? idFor(found.item, parameter.name) : undefined;
        if (found && id !== undefined) next = withId(next, parameter.name, id, found.from);
      }
      return next;
    });
  }
  return current;
}
