/**
 * Effect oracles (docs/architecture.md §2.8): the reads that show what a write did to an object — the same resource's
 * read (the write's own path, or its parent's: `GET /users/{username}` for `PUT /users/{username}/password`), a read
 * a link leads to (`GET /users/{username}` for the user a sign-up's body named), the caller's own record (`GET /me`),
 * or the resource's list with the object picked out by its key. A sign-in with a changed credential is the oracle of
 * a password change (oracle `login`, sent by the check).
 */
import type { Operation } from '../api.js';
import { answerItems, answerObject, scalar, type JsonObject } from './answer-objects.js';
import type { ApiDescription } from './describe-api.js';
import { FIRST, type ScanIdentity } from './identities.js';
import { parseJson } from './json-pointer.js';
import { basePathOf, fillTemplate, matchTemplate } from './path-template.js';
import { USER_RESOURCES, sameKind } from './resource-names.js';
import { namedValues } from './write-rule.js';

export type OracleKind = 'read' | 'parent-read' | 'linked' | 'self' | 'list' | 'login';

/** The object a write acts on: its resource, the keys that name it, and (when a scan identity's) whose it is. */
export interface ObjectTarget {
  resource: string;
  keys: Record<string, string>;
  /** Path parameter values of the write (ancestors a read needs: `{teamId}` of `/teams/{teamId}/users/{id}`). */
  context: Record<string, string>;
  owner?: string;
}

export interface Oracle {
  kind: OracleKind;
  operation: Operation;
  /** The read's URL, its key filled in. */
  url: string;
  /** `GET /api/users/{username} (a read of the same resource)`, for evidence and reasons. */
  describe: string;
  /** The object the answer shows, picked by its key from a list. */
  pick(body: string): JsonObject | undefined;
}

/** The object a write of `operation` names (its references), or the sending identity's own record for a self path. */
export function targetOf(
  description: ApiDescription,
  operation: Operation,
  request: { url: string; body?: string },
  identity: ScanIdentity | undefined,
  ownerOf: (resource: string, field: string, value: string) => string | undefined,
): ObjectTarget | undefined {
  const place = description.placeOf(operation);
  if (!place) return undefined;
  const named = namedValues(description, { method: operation.method, url: request.url, body: request.body, operation });
  const context =
    matchTemplate(operation.path, new URL(request.url).pathname, basePathOf(operation.url, operation.path)) ?? {};
  const keys: Record<string, string> = {};
  let resource: string | undefined;
  for (const { ref, value } of named?.values ?? []) {
    if (ref.creates || ref.credential) continue;
    // The object the operation acts on: a reference to its own resource (or to users, for an action on users).
    if (!sameKind(ref.resource, place.resource.name) && resource !== undefined) continue;
    resource ??= ref.resource;
    if (sameKind(ref.resource, resource)) keys[ref.field] = value;
  }
  if (resource === undefined && place.self && identity) {
    resource = place.resource.name;
    Object.assign(keys, identity.self);
  }
  if (resource === undefined) return undefined;
  const owner = Object.entries(keys)
    .map(([field, value]) => ownerOf(resource, field, value))
    .find((o) => o !== undefined);
  return { resource, keys, context, ...(owner ? { owner } : {}) };
}

function pickBy(keys: Record<string, string>) {
  return (body: string): JsonObject | undefined => {
    const parsed = parseJson(body);
    const matches = (item: JsonObject): boolean =>
      Object.entries(keys).some(([field, value]) => scalar(item[field]) === value);
    const single = answerObject(parsed);
    if (single && (matches(single) || answerItems(parsed) === undefined)) return single;
    return answerItems(parsed)?.find(matches);
  };
}

/** The reads that show `target`, best first; `write` is the operation whose effect they prove (its own path first). */
export function oraclesFor(
  description: ApiDescription,
  target: ObjectTarget,
  write: Operation | undefined,
  reader: ScanIdentity | undefined,
): Oracle[] {
  const resource =
    description.resources.find((r) => r.name === target.resource) ??
    description.resources.find((r) => sameKind(r.name, target.resource));
  if (!resource) return [];
  const oracles: Oracle[] = [];
  const reads = resource.operations
    .filter((o) => o.role === 'read')
    .map((o) => description.byId(o.operationId))
    .filter((o): o is Operation => o !== undefined && o.method.toUpperCase() === 'GET');
  for (const read of reads) {
    const place = description.placeOf(read)!;
    if (place.self) continue;
    const key = resource.keys.find((k) => k.template === read.path);
    if (!key || target.keys[key.field] === undefined) continue;
    const values: Record<string, string> = { ...target.context, [key.parameter]: target.keys[key.field] };
    const url = new URL(read.url);
    url.pathname = `${basePathOf(read.url, read.path).replace(/\/$/, '')}${fillTemplate(read.path, values)}`;
    if (/%7B|\{/.test(url.pathname)) continue;
    const kind: OracleKind =
      write && read.path === write.path
        ? 'read'
        : write && write.path.startsWith(`${read.path}/`)
          ? 'parent-read'
          : 'linked';
    const why =
      kind === 'read'
        ? 'the same path'
        : kind === 'parent-read'
          ? "its parent's read"
          : `a read its ${key.field} links to`;
    oracles.push({ kind, operation: read, url: url.href, describe: `${read.id} (${why})`, pick: pickBy(target.keys) });
  }
  // The caller's own record: the object is the reader's.
  const users = USER_RESOURCES.test(resource.name) || resource.name === 'user';
  const own =
    reader !== undefined && Object.entries(target.keys).some(([field, value]) => reader.self[field] === value);
  if (users && own) {
    const me = description.operations
      .filter(
        (op) =>
          op.method.toUpperCase() === 'GET' &&
          description.placeOf(op)?.self &&
          description.placeOf(op)?.role === 'read',
      )
      .sort((a, b) => a.path.length - b.path.length)[0];
    if (me)
      oracles.push({
        kind: 'self',
        operation: me,
        url: me.url,
        describe: `${me.id} (the identity's own record)`,
        pick: (body) => pickBy(target.keys)(body) ?? answerObject(parseJson(body)),
      });
  }
  for (const list of resource.operations.filter((o) => o.role === 'list')) {
    const operation = description.byId(list.operationId);
    if (!operation || operation.method.toUpperCase() !== 'GET' || /\{/.test(operation.path)) continue;
    oracles.push({
      kind: 'list',
      operation,
      url: operation.url,
      describe: `${operation.id} (the list, picked by ${Object.keys(target.keys).join('/')})`,
      pick: (body) =>
        answerItems(parseJson(body))?.find((item) =>
          Object.entries(target.keys).some(([f, v]) => scalar(item[f]) === v),
        ),
    });
  }
  return oracles;
}

/** Who reads an object back: its owner when a scan identity owns it, else the first identity. */
export const readerOf = (target: ObjectTarget): string => target.owner ?? FIRST;
