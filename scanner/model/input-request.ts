/**
 * Sends an operation with some of its inputs set (scanner/model/inputs.ts): the `ProbeRequest` that carries the new
 * values where each input travels — the path (encoded, inside the server's base path), the query string, a header, a
 * cookie, or the body at the input's pointer (JSON, form or multipart, written back like the original). Inputs the
 * operation does not send as given are added.
 */
import type { Operation, ProbeRequest } from '../api.js';
import type { OperationInput } from './inputs.js';
import { readRequestBody, writeRequestBody, type RequestBody } from './request-body.js';

export interface InputChange {
  input: OperationInput;
  /** Any JSON value for JSON body inputs and GraphQL arguments; written as text everywhere else. */
  value: unknown;
}

const asText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * Characters a cookie value cannot hold (RFC 6265 §4.1.1 cookie-octet), percent-encoded as servers decode them
 * (Express's cookie parser, Rails, Django): a `;` would otherwise end the cookie and start another.
 */
function cookieValue(value: string): string {
  return [...value]
    .map((c) => {
      const code = c.charCodeAt(0);
      const octet = code > 0x20 && code < 0x7f && !'",;\\%'.includes(c);
      return octet ? c : encodeURIComponent(c);
    })
    .join('');
}

/** Whether a value can travel in this input at all: a header holds no line break, NUL or non-Latin-1 (got refuses it). */
export function canCarry(input: OperationInput, value: unknown): boolean {
  if (input.location !== 'header') return true;
  return [...asText(value)].every((c) => {
    const code = c.charCodeAt(0);
    return code !== 0 && code !== 10 && code !== 13 && code <= 0xff;
  });
}

function filledPath(operation: Operation, values: Map<string, string>): string {
  let path = operation.path;
  for (const parameter of operation.pathParameters ?? []) {
    const value = values.get(parameter.name) ?? parameter.value;
    path = path.split(`{${parameter.name}}`).join(encodeURIComponent(value));
  }
  return path;
}

type Node = Record<string, unknown> | unknown[];

/** Sets `value` at `pointer` in a JSON document, creating the objects (or arrays, for numeric keys) on the way. */
function setAt(document: unknown, pointer: readonly string[], value: unknown): unknown {
  if (pointer.length === 0) return value;
  const root: Node =
    typeof document === 'object' && document !== null ? (document as Node) : /^\d+$/.test(pointer[0]) ? [] : {};
  let node = root as Record<string, unknown>;
  for (let i = 0; i < pointer.length - 1; i += 1) {
    const next = node[pointer[i]];
    if (typeof next !== 'object' || next === null) node[pointer[i]] = /^\d+$/.test(pointer[i + 1]) ? [] : {};
    node = node[pointer[i]] as Record<string, unknown>;
  }
  node[pointer[pointer.length - 1]] = value;
  return root;
}

function changedBody(body: RequestBody, changes: readonly InputChange[]): RequestBody {
  if (body.encoding === 'json') {
    let value = structuredClone(body.value);
    for (const { input, value: v } of changes) value = setAt(value, input.pointer ?? [input.name], v);
    return { encoding: 'json', value };
  }
  if (body.encoding === 'form') {
    const fields = body.fields.map(([name, value]) => [name, value] as [string, string]);
    for (const { input, value } of changes) {
      const at = fields.findIndex(([name]) => name === input.name);
      if (at >= 0) fields[at] = [input.name, asText(value)];
      else fields.push([input.name, asText(value)]);
    }
    return { encoding: 'form', fields };
  }
  const parts = body.parts.map((part) => ({ ...part }));
  for (const { input, value } of changes) {
    const part = parts.find((p) => p.name === input.name && p.filename === undefined);
    if (part) part.value = asText(value);
    else parts.push({ name: input.name, value: asText(value) });
  }
  return { encoding: 'multipart', boundary: body.boundary, parts };
}

/** The request that sends the operation with every change applied (one input may appear once). */
export function withInputs(operation: Operation, changes: readonly InputChange[]): ProbeRequest {
  const probe: ProbeRequest = {};
  const url = new URL(operation.url);
  let urlChanged = false;
  const pathValues = new Map<string, string>();
  for (const { input, value } of changes) {
    if (input.location === 'path') pathValues.set(input.name, asText(value));
    else if (input.location === 'query') {
      url.searchParams.set(input.name, asText(value));
      urlChanged = true;
    } else if (input.location === 'header') probe.headers = { ...probe.headers, [input.name]: asText(value) };
    else if (input.location === 'cookie')
      probe.cookies = { ...probe.cookies, [input.name]: cookieValue(asText(value)) };
  }
  if (pathValues.size > 0) {
    const original = filledPath(operation, new Map());
    // The description's path sits under the server's base path (`/v1` + `/users/{id}`): only its own part changes.
    const base = url.pathname.endsWith(original) ? url.pathname.slice(0, url.pathname.length - original.length) : '';
    url.pathname = `${base}${filledPath(operation, pathValues)}`;
    urlChanged = true;
  }
  if (urlChanged) probe.url = url.href;
  const bodyChanges = changes.filter((c) => c.input.location === 'body' || c.input.location === 'argument');
  if (bodyChanges.length > 0) {
    const body = readRequestBody(operation.body, operation.headers);
    if (body) probe.body = writeRequestBody(changedBody(body, bodyChanges));
  }
  return probe;
}

/** The request that sends the operation with `input` set to `value`. */
export function withInput(operation: Operation, input: OperationInput, value: unknown): ProbeRequest {
  return withInputs(operation, [{ input, value }]);
}
