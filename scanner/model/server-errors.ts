/**
 * Server errors are evidence (docs/architecture.md §2.8): every request of the scan that a server answered 5xx or
 * that ended without an answer (a dropped connection, a timeout), with the inputs that made it differ from the
 * operation as given — which query parameter, body field, header, method or credential the check changed, and to
 * what — grouped per operation for the report.
 */
import { getPointer, parseJson } from './json-pointer.js';

export interface ServerErrorInput {
  /** `query category`, `body /email`, `header X-HTTP-Method-Override`, `method`, `credential`, `path`, `as given`. */
  input: string;
  /** The value sent there (truncated; credentials are redacted by the caller). */
  value?: string;
}

export interface ServerError {
  operationId: string;
  checkId: string;
  /** The attempt (scan) id in the check's report item. */
  attemptId: string;
  method: string;
  url: string;
  /** The status, or undefined when no answer came. */
  status?: number;
  /** Why no answer came (`socket hang up`, a timeout). */
  error?: string;
  inputs: ServerErrorInput[];
}

export interface ServerErrorLog {
  record(error: ServerError): void;
  all(): readonly ServerError[];
}

export function createServerErrorLog(): ServerErrorLog {
  const errors: ServerError[] = [];
  return { record: (error) => void errors.push(error), all: () => errors };
}

const VALUE_LIMIT = 120;
const cut = (value: unknown): string => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > VALUE_LIMIT ? `${text.slice(0, VALUE_LIMIT)}…` : text;
};

interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[]>;
  body?: string;
}

/** Every JSON leaf's pointer and value (objects and arrays walked; a few levels deep). */
function leaves(value: unknown, at = '', depth = 0, out = new Map<string, unknown>()): Map<string, unknown> {
  if (value === null || typeof value !== 'object' || depth > 6) {
    out.set(at, value);
    return out;
  }
  for (const [key, sub] of Object.entries(value as Record<string, unknown>))
    leaves(sub, `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, depth + 1, out);
  return out;
}

/** What a request changed from the operation as given, as inputs (empty: it was the operation as given). */
export function changedInputs(given: SentRequest, sent: SentRequest): ServerErrorInput[] {
  const inputs: ServerErrorInput[] = [];
  if (given.method.toUpperCase() !== sent.method.toUpperCase()) inputs.push({ input: 'method', value: sent.method });
  const a = new URL(given.url);
  const b = new URL(sent.url);
  if (a.pathname !== b.pathname) inputs.push({ input: 'path', value: cut(b.pathname) });
  const names = new Set([...a.searchParams.keys(), ...b.searchParams.keys()]);
  for (const name of names) {
    const before = a.searchParams.getAll(name).join(',');
    const after = b.searchParams.getAll(name).join(',');
    if (before !== after) inputs.push({ input: `query ${name}`, value: cut(after) });
  }
  const lower = (headers: Record<string, string | string[]>): Map<string, string> =>
    new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(', ') : v]));
  const ha = lower(given.headers);
  const hb = lower(sent.headers);
  for (const name of new Set([...ha.keys(), ...hb.keys()])) {
    if (ha.get(name) === hb.get(name) || name === 'content-length') continue;
    inputs.push(
      name === 'authorization' || name === 'cookie'
        ? { input: 'credential' }
        : { input: `header ${name}`, value: cut(hb.get(name) ?? '(removed)') },
    );
  }
  if (given.body !== sent.body) {
    const before = parseJson(given.body);
    const after = parseJson(sent.body);
    if (before !== undefined && after !== undefined) {
      const old = leaves(before);
      for (const [pointer, value] of leaves(after))
        if (JSON.stringify(old.get(pointer)) !== JSON.stringify(value))
          inputs.push({ input: `body ${pointer || '/'}`, value: cut(value) });
      for (const pointer of old.keys())
        if (getPointer(after, pointer) === undefined && pointer !== '')
          inputs.push({ input: `body ${pointer}`, value: '(removed)' });
    } else inputs.push({ input: 'body', value: cut(sent.body ?? '') });
  }
  return inputs.length > 0 ? inputs : [{ input: 'as given' }];
}

export interface ServerErrorGroup {
  operation: string;
  count: number;
  /** One entry per request, the first few (the count says how many there were). */
  requests: {
    check: string;
    scan: string;
    status?: number;
    error?: string;
    inputs: ServerErrorInput[];
  }[];
}

const PER_OPERATION = 20;

/** The errors per operation, in the order first seen; each operation lists its first requests. */
export function groupServerErrors(errors: readonly ServerError[]): ServerErrorGroup[] {
  const groups = new Map<string, ServerErrorGroup>();
  for (const error of errors) {
    const group = groups.get(error.operationId) ?? { operation: error.operationId, count: 0, requests: [] };
    groups.set(error.operationId, group);
    group.count += 1;
    if (group.requests.length < PER_OPERATION)
      group.requests.push({
        check: error.checkId,
        scan: error.attemptId,
        ...(error.status !== undefined ? { status: error.status } : {}),
        ...(error.error !== undefined ? { error: error.error } : {}),
        inputs: error.inputs,
      });
  }
  return [...groups.values()];
}
