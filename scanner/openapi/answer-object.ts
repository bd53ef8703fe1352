/**
 * The object a JSON answer is about, and the id it holds for a path parameter: what object-ids.ts fills generated path
 * parameters with (the answer itself when it has an id field, its first element, or the first element of its first
 * array property, e.g. `{ "items": [...] }`; the field named like the parameter, else `id`, `uuid` or `_id`).
 */

const ID_FIELDS = ['id', 'uuid', '_id'];

export type Item = Record<string, unknown>;

const isObject = (value: unknown): value is Item =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The first object of a JSON answer: itself when it has an id field, its first element, or the first element of its first array property. */
export function firstObject(body: unknown): Item | undefined {
  if (Array.isArray(body)) return isObject(body[0]) ? body[0] : undefined;
  if (!isObject(body)) return undefined;
  if (ID_FIELDS.some((field) => field in body)) return body;
  const list = Object.values(body).find((value) => Array.isArray(value) && isObject(value[0])) as Item[] | undefined;
  return list?.[0];
}

/** The id in `item` for a path parameter named `name`. */
export function idFor(item: Item, name: string): string | undefined {
  for (const field of [name, ...ID_FIELDS]) {
    const value = item[field];
    if (typeof value === 'string' && value !== '') return value;
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  }
  return undefined;
}
