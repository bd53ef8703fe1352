/**
 * THE enumeration of an operation's inputs (docs/architecture.md §2.8): path parameters, query parameters, declared
 * and given headers and cookies, JSON bodies (nested objects and arrays), form and multipart bodies, and GraphQL
 * arguments — each with its location, name, type, format and example, whether the operation sends it as given, and
 * what the description declares about it. Every input-driven check reads this list; `withInput` (input-request.ts)
 * sends the operation with one of them changed. The scan's own credential is never an input.
 */
import type { InputField, Operation } from '../api.js';
import { readRequestBody, type BodyEncoding } from './request-body.js';

export type InputLocation = 'path' | 'query' | 'header' | 'cookie' | 'body' | 'argument';

export interface OperationInput {
  location: InputLocation;
  /** The parameter, header, cookie or field name; for a nested body input its own key (an array item: the array's). */
  name: string;
  /** Body inputs and GraphQL arguments: the keys from the body's root (`['address', 'city']`, `['variables', 'url']`). */
  pointer?: readonly string[];
  /** Body inputs: how the body is written. GraphQL arguments travel as JSON variables. */
  encoding?: BodyEncoding;
  /** JSON Schema type, declared or read from the value sent (`string`, `integer`, `number`, `boolean`, `array`, `object`). */
  type?: string;
  format?: string;
  /** The value sent as given, else the description's example (undefined when it has none). */
  example?: unknown;
  /** Whether the operation as given sends it (a declared optional parameter is not sent until a check sets it). */
  sent: boolean;
  /** What the description declares about it (OpenAPI, GraphQL); absent in curl scans. */
  declared?: InputField;
}

/** How deep a JSON body is walked: `a.b.c.d` is four keys. */
const MAX_DEPTH = 4;
/** Array items beyond the first are the same input again. */
const ARRAY_ITEMS = 1;

/** Headers that carry the transport, not the API's own inputs: never offered unless the description declares them. */
const TRANSPORT_HEADERS = new Set([
  'accept',
  'accept-encoding',
  'accept-language',
  'authorization',
  'cache-control',
  'connection',
  'content-length',
  'content-type',
  'cookie',
  'host',
  'pragma',
  'origin',
  'proxy-authorization',
  'referer',
  'te',
  'transfer-encoding',
  'user-agent',
]);

/** `query category`, `body address.city`, `header X-Tenant`, `argument url`: how evidence names an input. */
export function describeInput(input: OperationInput): string {
  if (input.location === 'argument') return `argument ${input.pointer!.slice(1).join('.')}`;
  if (input.location === 'body') return `body ${input.pointer!.join('.')}`;
  return `${input.location} ${input.name}`;
}

/** The input's value as text (what string payloads are appended to). */
export function textOf(input: OperationInput): string {
  if (input.example === undefined || input.example === null) return '';
  return typeof input.example === 'string' ? input.example : JSON.stringify(input.example);
}

/** Whether the input reaches the server as text: everything but typed JSON values (numbers, booleans) and objects. */
export function isTextInput(input: OperationInput): boolean {
  if (input.location !== 'body' && input.location !== 'argument') return true;
  if (input.encoding !== 'json') return true;
  return (input.type ?? 'string') === 'string';
}

function typeOfValue(value: unknown): string | undefined {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (Array.isArray(value)) return 'array';
  if (value !== null && typeof value === 'object') return 'object';
  return undefined;
}

const samePointer = (a: readonly string[] | undefined, b: readonly string[] | undefined): boolean =>
  a !== undefined && b !== undefined && a.length === b.length && a.every((key, i) => key === b[i]);

/** The leaves of a JSON value (and empty objects/arrays), each with its pointer. */
function jsonLeaves(value: unknown, pointer: string[], out: { pointer: string[]; value: unknown }[]): void {
  const container = typeof value === 'object' && value !== null;
  if (!container || pointer.length >= MAX_DEPTH || Object.keys(value).length === 0) {
    if (pointer.length > 0) out.push({ pointer, value });
    return;
  }
  const entries = Array.isArray(value)
    ? value.slice(0, ARRAY_ITEMS).map((item, i) => [String(i), item] as const)
    : Object.entries(value as Record<string, unknown>);
  for (const [key, child] of entries) jsonLeaves(child, [...pointer, key], out);
}

/** A body input's own name: its key, or the array's for an array item (`tags.0` is a `tags`). */
function nameAt(pointer: readonly string[]): string {
  for (let i = pointer.length - 1; i >= 0; i -= 1) if (!/^\d+$/.test(pointer[i])) return pointer[i];
  return pointer[pointer.length - 1];
}

function declaredAs(input: InputField): Pick<OperationInput, 'type' | 'format'> {
  return { ...(input.type ? { type: input.type } : {}), ...(input.format ? { format: input.format } : {}) };
}

function fromValue(
  location: InputLocation,
  name: string,
  value: unknown,
  declared: InputField | undefined,
  extra: Partial<OperationInput> = {},
): OperationInput {
  const type = declared?.type ?? typeOfValue(value);
  return {
    location,
    name,
    ...extra,
    ...(type ? { type } : {}),
    ...(declared?.format ? { format: declared.format } : {}),
    example: value,
    sent: true,
    ...(declared ? { declared } : {}),
  };
}

function credentialName(operation: Operation, where: 'query' | 'header' | 'cookie'): string | undefined {
  return operation.credential?.in === where ? operation.credential.name.toLowerCase() : undefined;
}

function parameterInputs(operation: Operation, declared: readonly InputField[]): OperationInput[] {
  const inputs: OperationInput[] = [];
  const find = (where: InputField['in'], name: string): InputField | undefined =>
    declared.find(
      (d) => d.in === where && (where === 'header' ? d.name.toLowerCase() === name.toLowerCase() : d.name === name),
    );
  for (const parameter of operation.pathParameters ?? [])
    inputs.push(fromValue('path', parameter.name, parameter.value, find('path', parameter.name)));
  const queryCredential = credentialName(operation, 'query');
  for (const [name, value] of new URL(operation.url).searchParams)
    if (name.toLowerCase() !== queryCredential) inputs.push(fromValue('query', name, value, find('query', name)));
  const headerCredential = credentialName(operation, 'header');
  for (const [name, values] of Object.entries(operation.headers)) {
    const lower = name.toLowerCase();
    const declaration = find('header', name);
    if (lower === headerCredential || (TRANSPORT_HEADERS.has(lower) && !declaration)) continue;
    inputs.push(fromValue('header', name, values[0], declaration));
  }
  const cookieCredential = credentialName(operation, 'cookie');
  for (const [name, value] of Object.entries(operation.cookies))
    if (name.toLowerCase() !== cookieCredential) inputs.push(fromValue('cookie', name, value, find('cookie', name)));
  return inputs;
}

function bodyInputs(operation: Operation, declared: readonly InputField[]): OperationInput[] {
  const body = readRequestBody(operation.body, operation.headers);
  if (!body) return [];
  const declaredBody = declared.filter((d) => d.in === 'body');
  const pointerOf = (d: InputField): string[] => d.pointer ?? [d.name];
  const find = (pointer: readonly string[]): InputField | undefined =>
    declaredBody.find((d) => samePointer(pointerOf(d), pointer));
  if (body.encoding === 'form')
    return body.fields.map(([name, value]) =>
      fromValue('body', name, value, find([name]), { pointer: [name], encoding: 'form' }),
    );
  if (body.encoding === 'multipart')
    return body.parts
      .filter((part) => part.filename === undefined)
      .map((part) =>
        fromValue('body', part.name, part.value, find([part.name]), { pointer: [part.name], encoding: 'multipart' }),
      );
  // A GraphQL body's inputs are its variables (the arguments): `query` and `operationName` are the document.
  const graphql = declaredBody.some((d) => d.graphqlType !== undefined);
  const roots = graphql ? [...new Set(declaredBody.map((d) => pointerOf(d)[0]))] : undefined;
  const leaves: { pointer: string[]; value: unknown }[] = [];
  if (roots) {
    const document = (body.value ?? {}) as Record<string, unknown>;
    for (const root of roots) jsonLeaves(document[root], [root], leaves);
  } else jsonLeaves(body.value, [], leaves);
  // `variables: {}` (a field without arguments) is no input.
  return leaves
    .filter(({ pointer }) => !roots || pointer.length > 1)
    .map(({ pointer, value }) =>
      fromValue(graphql ? 'argument' : 'body', nameAt(pointer), value, find(pointer), { pointer, encoding: 'json' }),
    );
}

/** Declared inputs the operation does not send as given (optional parameters, body properties left out). */
function unsentInputs(operation: Operation, declared: readonly InputField[], sent: OperationInput[]): OperationInput[] {
  const body = readRequestBody(operation.body, operation.headers);
  const graphql = declared.some((d) => d.graphqlType !== undefined);
  const pointerOf = (d: InputField): string[] => d.pointer ?? [d.name];
  const covered = (d: InputField): boolean =>
    sent.some((input) =>
      d.in === 'body'
        ? input.pointer !== undefined &&
          // a declared object (or array) whose leaves are sent is covered by them
          samePointer(input.pointer.slice(0, pointerOf(d).length), pointerOf(d))
        : input.location === d.in &&
          (d.in === 'header' ? input.name.toLowerCase() === d.name.toLowerCase() : input.name === d.name),
    );
  const unsent: OperationInput[] = [];
  // A declared object whose own properties are declared is those properties.
  const parent = (d: InputField): boolean =>
    d.in === 'body' &&
    declared.some(
      (other) =>
        other.in === 'body' &&
        pointerOf(other).length > pointerOf(d).length &&
        samePointer(pointerOf(other).slice(0, pointerOf(d).length), pointerOf(d)),
    );
  for (const d of declared) {
    if (d.in === 'path' || covered(d) || parent(d)) continue;
    // Body fields can be added only to a body the scan can write back (a JSON object, a form, a multipart list).
    if (d.in === 'body' && !body) continue;
    const pointer = d.in === 'body' ? pointerOf(d) : undefined;
    unsent.push({
      location: d.in === 'body' && graphql ? 'argument' : d.in,
      name: d.name,
      ...(pointer ? { pointer, encoding: body!.encoding } : {}),
      ...declaredAs(d),
      ...(d.example !== undefined ? { example: d.example } : {}),
      sent: false,
      declared: d,
    });
  }
  return unsent;
}

/**
 * Every input of the operation, in a stable order: path, query, header, cookie, then body (or GraphQL argument) inputs
 * the operation sends, then declared ones it does not send.
 */
export function operationInputs(operation: Operation): OperationInput[] {
  const declared = operation.inputs ?? [];
  const sent = [...parameterInputs(operation, declared), ...bodyInputs(operation, declared)];
  // A body credential (a GraphQL token argument: scanner/graphql/token-argument.ts) is the scan's credential too.
  const credential = operation.credential?.in === 'body' ? operation.credential.pointer : undefined;
  return [...sent, ...unsentInputs(operation, declared, sent)].filter(
    (input) => !credential || !samePointer(input.pointer, credential),
  );
}
