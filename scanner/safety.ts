/**
 * The engine's send gate (docs/architecture.md §2.6): every request of a scan passes here before it reaches the wire, so no check,
 * probe or id-gathering step can send a destructive request by mistake. Destructive requests are refused unless
 * `--allow-destructive` is given, or they target an object this scan itself created (its own POST answered with it);
 * with an API model, any write naming an object no scan identity owns is refused too (scanner/model/write-rule.ts).
 */
import type { Operation } from './api.js';
import type { WireRequest } from './http.js';
import { graphqlRequestClass } from './graphql/request-class.js';
import { operationClass, type OperationClass } from './operation-class.js';

/** A request the gate refused; the context turns it into a skipped check with this reason. */
export class RefusedRequest extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

export const DESTRUCTIVE_REASON = 'destructive operation: not sent without --allow-destructive';

/** Headers and query parameters servers honour as the real method: a GET carrying `X-HTTP-Method-Override: DELETE` deletes. */
const OVERRIDE_HEADERS = ['x-http-method-override', 'x-http-method', 'x-method-override'];
const OVERRIDE_PARAMS = ['_method', 'method', 'httpMethod', '_httpMethod'];

/** The method a server may act on: an override header or parameter wins over the request line. */
function effectiveMethod(request: WireRequest): string {
  for (const [name, value] of Object.entries(request.headers)) {
    if (OVERRIDE_HEADERS.includes(name.toLowerCase()))
      return String(Array.isArray(value) ? value[0] : value).toUpperCase();
  }
  const url = new URL(request.url);
  for (const param of OVERRIDE_PARAMS) {
    const value = url.searchParams.get(param);
    if (value) return value.toUpperCase();
  }
  return request.method.toUpperCase();
}

/**
 * The class of what a request does: the GraphQL fields it calls when it carries GraphQL documents (however sent);
 * otherwise the operation's own names count only when it is that operation's method and path.
 */
function requestClass(operation: Operation | undefined, request: WireRequest): OperationClass {
  const graphql = graphqlRequestClass(request);
  if (graphql) return graphql;
  const method = effectiveMethod(request);
  const path = decodeURIComponent(new URL(request.url).pathname);
  const own =
    operation &&
    method === operation.method.toUpperCase() &&
    new URL(operation.url).pathname === new URL(request.url).pathname;
  return operationClass(
    own
      ? { method, path: operation.path, operationId: operation.operationId, summary: operation.summary }
      : { method, path },
  );
}

const ID_KEYS = ['id', '_id', 'uuid', 'key', 'slug'];

/** Paths of objects a write created, from its `Location` header and its body's top-level id. */
function createdPaths(request: WireRequest, status: number, headers: Record<string, string>, body: string): string[] {
  if (status < 200 || status >= 300) return [];
  const base = new URL(request.url);
  const paths: string[] = [];
  if (headers.location) {
    try {
      paths.push(new URL(headers.location, base).pathname);
    } catch {
      // an unparsable Location names nothing we could delete
    }
  }
  try {
    const parsed = JSON.parse(body) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      for (const key of ID_KEYS) {
        const value = (parsed as Record<string, unknown>)[key];
        if (typeof value === 'string' || typeof value === 'number')
          paths.push(`${base.pathname.replace(/\/$/, '')}/${encodeURIComponent(String(value))}`);
      }
    }
  } catch {
    // not JSON: only the Location header names the object
  }
  return paths;
}

export interface SendGate {
  /** Why this request must not be sent, or undefined. */
  refuse(operation: Operation | undefined, request: WireRequest): string | undefined;
  /** Whether `refuse` would refuse it now, without counting a refusal (nothing is being sent). */
  wouldRefuse(operation: Operation | undefined, request: WireRequest): boolean;
  /** Why `refuse` would refuse it now (nothing sent, nothing counted). */
  reasonFor(operation: Operation | undefined, request: WireRequest): string | undefined;
  /** Learns the objects a successful write created, so the scan may delete (only) those. */
  observe(request: WireRequest, status: number, headers: Record<string, string>, body: string): void;
  /** How many requests were refused (the report counts them). */
  refused(): number;
}

/**
 * The API model's part of the gate (scanner/model/write-rule.ts): which writes name objects no scan identity owns,
 * which URLs name an object the scan created, and what a create made.
 */
export interface ModelGate {
  refuse(request: WireRequest): string | undefined;
  createdUrl(url: string): boolean;
  observe(request: WireRequest, response: { status: number; headers: Record<string, string>; body: string }): void;
}

export function createSendGate(options: { allowDestructive?: boolean; model?: ModelGate } = {}): SendGate {
  const created = new Set<string>();
  let refusals = 0;
  const reasonFor = (operation: Operation | undefined, request: WireRequest): string | undefined => {
    const kind = requestClass(operation, request);
    if (kind === 'read') return undefined;
    if (
      kind === 'destructive' &&
      !options.allowDestructive &&
      !created.has(new URL(request.url).pathname) &&
      !options.model?.createdUrl(request.url)
    )
      return DESTRUCTIVE_REASON;
    // Writes and actions (destructive ones too) name only objects a scan identity owns or the scan created.
    return options.model?.refuse({ ...request, method: effectiveMethod(request) });
  };
  return {
    refuse(operation, request) {
      const reason = reasonFor(operation, request);
      if (reason !== undefined) refusals += 1;
      return reason;
    },
    wouldRefuse: (operation, request) => reasonFor(operation, request) !== undefined,
    reasonFor,
    observe(request, status, headers, body) {
      const method = effectiveMethod(request);
      if (method !== 'POST' && method !== 'PUT') return;
      for (const path of createdPaths(request, status, headers, body)) created.add(path);
      options.model?.observe(request, { status, headers, body });
    },
    refused: () => refusals,
  };
}
