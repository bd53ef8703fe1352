/**
 * The inputs a check can aim at, in every scan kind: the query parameters and the JSON body's top-level properties the
 * operation sends, described by the OpenAPI document when there is one (`operation.inputs`) and by their values
 * otherwise (curl scans) — and the probe that sends the operation with some of them changed.
 */
import type { InputField, Operation, ProbeRequest } from '../../scanner/api.js';

export interface Field {
  in: 'query' | 'body';
  name: string;
  /** The value the operation sends (undefined for a declared input it does not send). */
  value: unknown;
  /** What the description declares, when it does. */
  declared?: InputField;
  /** Body inputs below the top level (GraphQL arguments: `['variables', 'url']`). */
  pointer?: string[];
}

export type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The operation's body when it is a JSON object. */
export function jsonBody(operation: Operation): JsonObject | undefined {
  if (operation.body === undefined) return undefined;
  try {
    const parsed = JSON.parse(operation.body) as unknown;
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined; // a form or text body has no named properties to aim at
  }
}

/** Query parameters and JSON body properties, sent or declared (declared body properties only when the body is JSON). */
export function fieldsOf(operation: Operation): Field[] {
  const declared = (where: Field['in'], name: string): InputField | undefined =>
    operation.inputs?.find((i) => i.in === where && i.name === name);
  const fields: Field[] = [];
  for (const [name, value] of new URL(operation.url).searchParams) {
    const d = declared('query', name);
    fields.push({ in: 'query', name, value, ...(d ? { declared: d } : {}) });
  }
  const body = jsonBody(operation);
  // Inputs declared at a pointer (GraphQL variables): the body's own keys (`query`, `operationName`) are not inputs.
  const nested = (operation.inputs ?? []).filter((i) => i.in === 'body' && i.pointer);
  if (body && nested.length > 0) {
    for (const input of nested)
      fields.push({
        in: 'body',
        name: input.name,
        value: valueAt(body, input.pointer!),
        declared: input,
        pointer: input.pointer,
      });
    return fields;
  }
  if (body) {
    for (const [name, value] of Object.entries(body)) {
      const d = declared('body', name);
      fields.push({ in: 'body', name, value, ...(d ? { declared: d } : {}) });
    }
  }
  for (const input of operation.inputs ?? []) {
    if (input.in === 'path' || fields.some((f) => f.in === input.in && f.name === input.name)) continue;
    if (input.in === 'body' && !body) continue;
    fields.push({ in: input.in, name: input.name, value: undefined, declared: input });
  }
  return fields;
}

export interface Change {
  in: 'query' | 'body';
  name: string;
  value: unknown;
  /** The field's pointer, for body inputs below the top level. */
  pointer?: string[];
}

function valueAt(body: JsonObject, pointer: readonly string[]): unknown {
  let node: unknown = body;
  for (const key of pointer) node = isObject(node) ? node[key] : undefined;
  return node;
}

function setAt(body: JsonObject, pointer: readonly string[], value: unknown): void {
  let node = body;
  for (const key of pointer.slice(0, -1)) {
    if (!isObject(node[key])) node[key] = {};
    node = node[key] as JsonObject;
  }
  node[pointer[pointer.length - 1]] = value;
}

/** The probe fields (url and/or body) that send the operation with these inputs set. */
export function withChanges(operation: Operation, changes: Change[]): Pick<ProbeRequest, 'url' | 'body'> {
  const probe: Pick<ProbeRequest, 'url' | 'body'> = {};
  const query = changes.filter((c) => c.in === 'query');
  if (query.length > 0) {
    const url = new URL(operation.url);
    for (const change of query)
      url.searchParams.set(change.name, typeof change.value === 'string' ? change.value : JSON.stringify(change.value));
    probe.url = url.href;
  }
  const body = changes.filter((c) => c.in === 'body');
  if (body.length > 0) {
    const next = jsonBody(operation) ?? {};
    for (const change of body) {
      if (change.pointer) setAt(next, change.pointer, change.value);
      else next[change.name] = change.value;
    }
    probe.body = JSON.stringify(next);
  }
  return probe;
}

/** A JSON object from a response body, or the first object of a list (bare or wrapped in one array property). */
export function parseObject(body: string): JsonObject | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
  return isObject(parsed) ? parsed : undefined;
}
