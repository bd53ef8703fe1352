/**
 * The model's safety rule, applied by the send gate to every request of the scan (docs/architecture.md §2.8): a write
 * or an action is sent only when every object it names — in its path, its query or its body — is one a scan
 * identity owns or the scan created; a create's own key must be one the scan chose. Never a description's example or
 * a generated value: an example may name a real account (a password changed by username, a profile rewritten).
 * A write that sets a user's role, permissions or group (a body field so named) goes only to an object the scan
 * created, or when the check restores it: a scan identity left raised would scan the rest of the API as someone else.
 */
import type { Operation } from '../api.js';
import type { ApiDescription } from './describe-api.js';
import { getPointer, parseJson } from './json-pointer.js';
import type { Ownership } from './ownership.js';
import { basePathOf, matchTemplate } from './path-template.js';
import type { ObjectReference } from './references.js';

export interface WriteRuleInput {
  method: string;
  url: string;
  body?: string;
  /** The operation the request was built from (its template is tried first). */
  operation?: Operation;
  /**
   * The check restores what this request changes (a password, e-mail address, role, permissions or group of a scan
   * identity's own record).
   */
  restores?: boolean;
}

export interface NamedValue {
  ref: ObjectReference;
  value: string;
}

/** The described operation a request is an instance of, and the object values it names. */
export function namedValues(
  description: ApiDescription,
  request: WireRuleRequest,
): { operation: Operation; values: NamedValue[] } | undefined {
  const url = new URL(request.url);
  const own = request.operation;
  const operation =
    own &&
    own.method.toUpperCase() === request.method.toUpperCase() &&
    matchTemplate(own.path, url.pathname, basePathOf(own.url, own.path))
      ? own
      : description.operationFor(request.method, request.url);
  if (!operation) return undefined;
  const path = matchTemplate(operation.path, url.pathname, basePathOf(operation.url, operation.path)) ?? {};
  const body = parseJson(request.body);
  const values: NamedValue[] = [];
  for (const ref of description.referencesOf(operation)) {
    let value: unknown;
    if (ref.in === 'path') value = path[ref.name];
    else if (ref.in === 'query') value = url.searchParams.get(ref.name) ?? undefined;
    else value = getPointer(body, ref.pointer!);
    if (typeof value === 'string' || typeof value === 'number') values.push({ ref, value: String(value) });
  }
  return { operation, values };
}

type WireRuleRequest = WriteRuleInput;

/** Body fields that grant privileges: a user's role, its permissions, its groups (and their boolean forms). */
export const PRIVILEGE_FIELD =
  /^(roles?|user_?roles?|permissions?|privileges?|groups?|access_?level|user_?type|is_?admin|admin|is_?staff|is_?superuser|superuser)$/i;

/** The top-level fields of a JSON object body that grant privileges. */
function privilegeFields(body: string | undefined): string[] {
  const parsed = parseJson(body);
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return [];
  return Object.keys(parsed).filter((key) => PRIVILEGE_FIELD.test(key));
}

export interface WriteRuleState {
  description: ApiDescription;
  ownership: Ownership;
  /** Values the scan chose for creates' keys (fresh, nobody's before). */
  chosen: ReadonlySet<string>;
}

/** Why the scan must not send this write, or undefined. Reads are never refused here. */
export function refuseWrite(state: WriteRuleState, request: WriteRuleInput): string | undefined {
  if (['GET', 'HEAD', 'OPTIONS'].includes(request.method.toUpperCase())) return undefined;
  const named = namedValues(state.description, request);
  if (!named) return undefined;
  for (const { ref, value } of named.values) {
    if (ref.creates) {
      if (state.chosen.has(value) || state.ownership.ownerOf(ref.resource, ref.field, value)) continue;
      return `${named.operation.id}: ${describeRef(ref)}=${JSON.stringify(value)} is not a key the scan chose: a create with a description's value may take over someone's ${ref.resource}`;
    }
    if (ref.credential) {
      if (state.ownership.ownerOf(ref.resource, ref.field, value) || request.restores) continue;
      return ref.credential === 'password'
        ? `${named.operation.id}: would change a user's password, which the scan could not set back (it knows no scan identity's password: give the identity as --identity NAME=login:username=…&password=env:VARIABLE)`
        : `${named.operation.id}: would set a user's e-mail address to ${JSON.stringify(value)}, not a scan identity's own (the account's recovery address)`;
    }
    if (state.ownership.ownerOf(ref.resource, ref.field, value)) continue;
    return `${named.operation.id}: ${describeRef(ref)}=${JSON.stringify(value)} names no object of a scan identity's (a description example or a generated value): writes go only to the scan identities' own objects or those the scan created`;
  }
  return refusePrivilegeChange(state, request, named.operation, named.values);
}

/** A role, permission or group change the check does not restore, on an object the scan did not create. */
function refusePrivilegeChange(
  state: WriteRuleState,
  request: WriteRuleInput,
  operation: Operation,
  values: NamedValue[],
): string | undefined {
  const fields = privilegeFields(request.body);
  if (fields.length === 0 || request.restores) return undefined;
  // A create naming no existing object (a sign-up, a new item): the fields are the new object's, nobody's role yet.
  const role = state.description.placeOf(operation)?.role;
  if ((role === 'create' || role === 'sign-up') && values.every(({ ref }) => ref.creates)) return undefined;
  // A create with keys the scan chose, or a write to an object the scan created: nobody's role but the scan's own.
  const scanCreated = values.some(
    ({ ref, value }) =>
      (ref.creates && state.chosen.has(value)) ||
      ['created', 'chosen'].includes(state.ownership.ownerOf(ref.resource, ref.field, value)?.source ?? ''),
  );
  if (scanCreated) return undefined;
  return `${operation.id}: would change ${fields.map((f) => `"${f}"`).join(', ')} of a user the scan did not create, and this check does not set it back (a scan identity left raised scans the rest of the API as someone else)`;
}

function describeRef(ref: ObjectReference): string {
  if (ref.in === 'path') return `{${ref.name}}`;
  if (ref.in === 'query') return `?${ref.name}`;
  return `body ${ref.pointer}`;
}
