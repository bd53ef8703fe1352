/**
 * Fills an operation's object references with one identity's own values — its own record's fields for references to
 * users, else ids from its own answers or objects the scan created for it — and a create's key with a fresh value the
 * scan chose (never a description example: it may name someone's account). What cannot be filled is said, so a check
 * skips with that reason instead of sending a description's example (docs/architecture.md §2.8, safety rule).
 */
import { randomBytes } from 'node:crypto';
import type { Operation } from '../api.js';
import type { ScanIdentity } from './identities.js';
import { deletePointer, getPointer, parseJson, setPointer } from './json-pointer.js';
import type { Ownership } from './ownership.js';
import { basePathOf, fillTemplate, matchTemplate } from './path-template.js';
import type { ObjectReference } from './references.js';
import { USER_RESOURCES } from './resource-names.js';

export interface FilledValue {
  ref: ObjectReference;
  value: string;
  /** Where the value comes from: `its own record (GET /api/account)`, `its own list (GET /orders)`, `chosen by the scan`. */
  from: string;
}

export interface Filled {
  url: string;
  body?: string;
  values: FilledValue[];
  /** References the identity has no value for: the request still carries the description's value. */
  missing: ObjectReference[];
  /**
   * A password or e-mail address the identity's own value could not fill: left out of the body (a change to a
   * sign-in credential the scan could not set back is never sent as given).
   */
  dropped: ObjectReference[];
}

/** Fields an identity's own record may hold a key under (`id` as `_id`; a token's `preferred_username`). */
export const ALIASES: Record<string, string[]> = {
  id: ['id', '_id', 'uuid', 'userId', 'user_id'],
  username: ['username', 'user_name', 'login', 'preferred_username'],
  email: ['email', 'mail', 'e_mail'],
};

function selfValue(identity: ScanIdentity, field: string): { value: string; from: string } | undefined {
  for (const name of ALIASES[field] ?? [field]) {
    const value = identity.self[name];
    if (value !== undefined) return { value, from: `its own record (${identity.selfFrom[name]})` };
  }
  return undefined;
}

/** A value no one else holds, shaped like the field (an e-mail address, a user name, a number). */
export function freshValue(ref: Pick<ObjectReference, 'name' | 'field'>, type?: string, format?: string): string {
  const tag = randomBytes(4).toString('hex');
  if (format === 'email' || /e-?mail/i.test(ref.name)) return `gh-${tag}@example.com`;
  if (type === 'integer' || type === 'number')
    return String(900_000_000 + (randomBytes(3).readUIntBE(0, 3) % 99_999_999));
  if (format === 'uuid') {
    const hex = randomBytes(16).toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }
  return `gh_${tag}`;
}

export interface FillOptions {
  /** Writes prefer objects the scan created over the identity's existing ones (less of its real data at stake). */
  preferCreated?: boolean;
  /** Chooses (and registers) a fresh value for a create's key. */
  choose: (ref: ObjectReference) => string;
}

/** The value the identity has for `ref`, if any. */
function ownValue(
  ref: ObjectReference,
  identity: ScanIdentity,
  ownership: Ownership,
  options: Pick<FillOptions, 'preferCreated'> = {},
): { value: string; from: string } | undefined {
  if (ref.credential === 'password') {
    const password = identity.password();
    return password === undefined ? undefined : { value: password, from: 'its own password (unchanged)' };
  }
  if (USER_RESOURCES.test(ref.resource) || ref.resource === 'user') {
    const own = selfValue(identity, ref.field);
    if (own) return own;
  }
  const values = ownership.valuesOf(identity.name, ref.resource, ref.field);
  const picked = (options.preferCreated ? values.find((v) => v.source === 'created') : undefined) ?? values[0];
  return picked ? { value: picked.value, from: picked.from } : undefined;
}

export function fillReferences(
  operation: Operation,
  references: readonly ObjectReference[],
  identity: ScanIdentity,
  ownership: Ownership,
  options: FillOptions,
): Filled {
  const values: FilledValue[] = [];
  const missing: ObjectReference[] = [];
  const dropped: ObjectReference[] = [];
  const url = new URL(operation.url);
  const basePath = basePathOf(operation.url, operation.path);
  const pathValues = matchTemplate(operation.path, url.pathname, basePath) ?? {};
  let body = parseJson(operation.body);
  for (const ref of references) {
    let chosen: { value: string; from: string } | undefined;
    if (ref.creates) chosen = { value: options.choose(ref), from: 'chosen by the scan (a fresh key)' };
    else chosen = ownValue(ref, identity, ownership, options);
    if (!chosen && ref.credential && ref.in === 'body') {
      if (getPointer(body, ref.pointer!) !== undefined) {
        body = deletePointer(body, ref.pointer!);
        dropped.push(ref);
      }
      continue;
    }
    if (!chosen) {
      // Absent from the request (an optional field the body does not carry): nothing to fill, nothing sent.
      if (ref.in === 'body' && getPointer(body, ref.pointer!) === undefined) continue;
      if (ref.in === 'query' && !url.searchParams.has(ref.name)) continue;
      missing.push(ref);
      continue;
    }
    if (ref.in === 'path') pathValues[ref.name] = chosen.value;
    else if (ref.in === 'query') {
      if (!url.searchParams.has(ref.name)) continue;
      url.searchParams.set(ref.name, chosen.value);
    } else {
      const current = getPointer(body, ref.pointer!);
      if (current === undefined) continue;
      const typed =
        typeof current === 'number' && /^-?\d+(\.\d+)?$/.test(chosen.value) ? Number(chosen.value) : chosen.value;
      body = setPointer(body, ref.pointer!, typed) ?? body;
    }
    values.push({ ref, value: chosen.value, from: chosen.from });
  }
  url.pathname = `${basePath.replace(/\/$/, '')}${fillTemplate(operation.path, pathValues)}`;
  return {
    url: url.href,
    ...(operation.body !== undefined ? { body: body === undefined ? operation.body : JSON.stringify(body) } : {}),
    values,
    missing,
    dropped,
  };
}
