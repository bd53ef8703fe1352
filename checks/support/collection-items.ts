/**
 * The objects of a collection answer (bola.read on lists): a JSON array of objects, or the first array property of an
 * object (`{ "items": [...] }`), keyed by their identifier (`id`, `_id`, `uuid`) — and whether they name an owner
 * (`owner`, `userId`, `createdBy`, `tenantId`…), which tells a list of owned objects from a directory or a catalog.
 */

const ID_KEYS = ['id', '_id', 'uuid'];

function itemId(item: unknown): string | undefined {
  if (!item || typeof item !== 'object' || Array.isArray(item)) return undefined;
  const record = item as Record<string, unknown>;
  const key = ID_KEYS.find((k) => typeof record[k] === 'string' || typeof record[k] === 'number');
  return key === undefined || record[key] === '' ? undefined : String(record[key]);
}

const OWNER_KEY =
  /^(owner|owner_?id|user_?id|created_?by|author_?id|account_?id|customer_?id|tenant_?id|org(anization)?_?id|buyer_?id|seller_?id|member_?id)$/i;

/** Whether the listed objects name an owner (every identified item has an owner-like property). */
export function itemsNameOwner(body: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body) as unknown;
  } catch {
    return false;
  }
  const list = Array.isArray(parsed)
    ? parsed
    : parsed && typeof parsed === 'object'
      ? Object.values(parsed).find(Array.isArray)
      : undefined;
  const items = (list ?? []).filter((item): item is Record<string, unknown> => itemId(item) !== undefined);
  return items.length > 0 && items.every((item) => Object.keys(item).some((key) => OWNER_KEY.test(key)));
}

/** The ids of the objects a collection answer lists, or undefined when it is not a list of identified objects. */
export function collectionIds(body: string): string[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
  const list = Array.isArray(parsed)
    ? parsed
    : parsed && typeof parsed === 'object' && !ID_KEYS.some((k) => k in parsed)
      ? Object.values(parsed).find((v): v is unknown[] => Array.isArray(v) && v.some((i) => itemId(i) !== undefined))
      : undefined;
  if (!list) return undefined;
  const ids = list.map(itemId).filter((id): id is string => id !== undefined);
  return ids.length > 0 ? ids : undefined;
}
