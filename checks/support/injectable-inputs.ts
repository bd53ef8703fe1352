/**
 * The inputs an injection check may rewrite, with a request that carries a new value for one of them: path
 * parameters (OpenAPI scans), query parameters in the URL, and strings of a JSON body up to three keys deep.
 * The scan's own credential is never an input. Bounded: the first `MAX_INPUTS` in that order.
 */
import type { Operation, ProbeRequest } from '../../scanner/api.js';

const MAX_INPUTS = 6;

export interface InjectableInput {
  in: 'path' | 'query' | 'body';
  name: string;
  value: string;
  /** Body inputs: the property path inside the JSON body. */
  pointer?: (string | number)[];
}

type Json = unknown;

function bodyStrings(value: Json, pointer: (string | number)[], out: InjectableInput[]): void {
  if (pointer.length > 2 || typeof value !== 'object' || value === null) return;
  for (const [key, child] of Object.entries(value as Record<string, Json>)) {
    const at = [...pointer, Array.isArray(value) ? Number(key) : key];
    if (typeof child === 'string') out.push({ in: 'body', name: at.join('.'), value: child, pointer: at });
    else bodyStrings(child, at, out);
  }
}

export function parseJsonBody(operation: Operation): Record<string, Json> | undefined {
  if (operation.body === undefined) return undefined;
  try {
    const parsed = JSON.parse(operation.body) as Json;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, Json>)
      : undefined;
  } catch {
    return undefined;
  }
}

export function injectableInputs(operation: Operation): InjectableInput[] {
  const inputs: InjectableInput[] = [];
  for (const parameter of operation.pathParameters ?? [])
    inputs.push({ in: 'path', name: parameter.name, value: parameter.value });
  const credentialParameter = operation.credential?.in === 'query' ? operation.credential.name : undefined;
  for (const [name, value] of new URL(operation.url).searchParams)
    if (name !== credentialParameter) inputs.push({ in: 'query', name, value });
  const body = parseJsonBody(operation);
  // A body whose inputs are declared at pointers (GraphQL: the variables) offers those, not `query`/`operationName`.
  const roots = [
    ...new Set((operation.inputs ?? []).flatMap((i) => (i.in === 'body' && i.pointer ? [i.pointer[0]] : []))),
  ];
  if (body && roots.length > 0) for (const root of roots) bodyStrings(body[root], [root], inputs);
  else if (body) bodyStrings(body, [], inputs);
  // A body credential (a GraphQL token argument) is the scan's credential too: the jwt.* checks attack it.
  const credentialPointer = operation.credential?.in === 'body' ? operation.credential.pointer?.join('.') : undefined;
  return inputs.filter((input) => input.in !== 'body' || input.name !== credentialPointer).slice(0, MAX_INPUTS);
}

function filledPath(operation: Operation, replace?: { name: string; value: string }): string {
  let path = operation.path;
  for (const parameter of operation.pathParameters ?? []) {
    const value = parameter.name === replace?.name ? replace.value : parameter.value;
    path = path.split(`{${parameter.name}}`).join(encodeURIComponent(value));
  }
  return path;
}

function setAt(target: Json, pointer: (string | number)[], value: Json): void {
  let node = target as Record<string | number, Json>;
  for (const key of pointer.slice(0, -1)) node = node[key] as Record<string | number, Json>;
  node[pointer[pointer.length - 1]] = value;
}

/** The operation's request with `input` set to `value` (any JSON value for body inputs; a string elsewhere). */
export function withInput(operation: Operation, input: InjectableInput, value: Json): ProbeRequest {
  if (input.in === 'body') {
    const body = parseJsonBody(operation)!;
    setAt(body, input.pointer!, value);
    return { body: JSON.stringify(body) };
  }
  const url = new URL(operation.url);
  if (input.in === 'query') {
    url.searchParams.set(input.name, String(value));
    return { url: url.href };
  }
  const original = filledPath(operation);
  const base = url.pathname.endsWith(original) ? url.pathname.slice(0, url.pathname.length - original.length) : '';
  url.pathname = `${base}${filledPath(operation, { name: input.name, value: String(value) })}`;
  return { url: url.href };
}
