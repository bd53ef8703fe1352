/**
 * The objects in an API's JSON answer: the object itself (unwrapped from `{ data: … }` / `{ user: … }`), or the items
 * of a list (an array, or the array property of a page `{ items: [...], total }`), and which of an object's fields
 * name its owner (`userId`, `owner`, `createdBy`, `username`, `owner.id`).
 */
import { isOwnIdName, isUserKeyName, referencedKey } from './resource-names.js';

export type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const WRAPPERS = /^(data|result|user|account|profile|item|object|record|resource|me)$/i;

/** The object an answer describes, unwrapped from one level of `{ data: {...} }` when that is all it holds. */
export function answerObject(value: unknown): JsonObject | undefined {
  if (!isObject(value)) return undefined;
  const keys = Object.keys(value);
  const wrapper = keys.find((key) => WRAPPERS.test(key) && isObject(value[key]));
  if (wrapper && !keys.some((key) => isOwnIdName(key))) return value[wrapper] as JsonObject;
  return value;
}

/** The items of a list answer, or undefined when the answer is not a list of objects. */
export function answerItems(value: unknown): JsonObject[] | undefined {
  if (Array.isArray(value)) return value.filter(isObject);
  if (!isObject(value) || Object.keys(value).some((key) => isOwnIdName(key))) return undefined;
  const arrays = Object.values(value).filter((v): v is unknown[] => Array.isArray(v));
  // A page of objects (`{ items: [...] }`); an empty page is an empty list, not "not a list".
  const list = arrays.find((v) => v.some(isObject)) ?? arrays.find((v) => v.length === 0);
  return list?.filter(isObject);
}

export const scalar = (value: unknown): string | undefined =>
  (typeof value === 'string' && value !== '') || (typeof value === 'number' && Number.isFinite(value))
    ? String(value)
    : undefined;

const OWNER_NAMES = /^(owner|user|author|creator|created_?by|account|customer|member|buyer|uploader|requester)$/i;

/** Values of an object's fields that name its owner (a user): `userId`, `owner_id`, `owner`, `username`, `owner.id`. */
export function ownerValues(item: JsonObject): string[] {
  const values: string[] = [];
  for (const [key, value] of Object.entries(item)) {
    const target = referencedKey(key);
    if (
      (target && /^(user|account|member|customer|profile|owner|author)$/.test(target.resource)) ||
      isUserKeyName(key) ||
      OWNER_NAMES.test(key)
    ) {
      const text = scalar(value);
      if (text) values.push(text);
      if (isObject(value))
        for (const sub of ['id', '_id', 'uuid', 'username', 'email']) {
          const nested = scalar(value[sub]);
          if (nested) values.push(nested);
        }
    }
  }
  return values;
}

/** Fields of a user's own record that identify it: ids, user names, e-mail addresses, a subject. */
export function identifyingFields(record: JsonObject): [string, string][] {
  return Object.entries(record)
    .filter(
      ([key]) =>
        isOwnIdName(key) || isUserKeyName(key) || /^(e-?mail|mail|sub|user_?id|userId|account_?id|name)$/i.test(key),
    )
    .map(([key, value]) => [key, scalar(value)] as [string, string | undefined])
    .filter((entry): entry is [string, string] => entry[1] !== undefined);
}
