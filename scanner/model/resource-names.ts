/**
 * The words the model reads in paths and field names: which segments name a collection (not `api`, `v1`), the
 * singular of a collection's name, which field names hold an object's key (`id`, `userId`, `user_id`, `username`),
 * and which resource a key-like field names.
 */
import { wordsOf } from '../operation-class.js';

/** Segments that say where the API lives, not what it holds. */
const PREFIXES = /^(api|apis|rest|v\d+(\.\d+)*|version\d*|public|private|internal-api|service|services)$/i;

export const isPrefixSegment = (segment: string): boolean => PREFIXES.test(segment);

/** `users` → `user`, `categories` → `category`, `addresses` → `address`, `boxes` → `box`; other words unchanged. */
export function singular(word: string): string {
  const lower = word.toLowerCase();
  if (/ies$/.test(lower) && lower.length > 4) return `${lower.slice(0, -3)}y`;
  if (/(ss|x|ch|sh|z)es$/.test(lower)) return lower.slice(0, -2);
  if (/[^s]s$/.test(lower)) return lower.slice(0, -1);
  return lower;
}

/** The name a resource is known by: the singular of its collection segment, words joined by `_` (`order_item`). */
export function resourceName(segment: string): string {
  const words = wordsOf(segment);
  if (words.length === 0) return segment.toLowerCase();
  words[words.length - 1] = singular(words[words.length - 1]);
  return words.join('_');
}

/** Field names that hold an object's own identifier. */
const OWN_ID = /^(id|_id|uuid|guid|key|slug|oid)$/i;

export const isOwnIdName = (name: string): boolean => OWN_ID.test(name);

/** Names users are known by besides their id: the key a sign-in or a path names a user with. */
const USER_KEYS = /^(user_?name|login|handle|nick_?name|screen_?name|account_?name)$/i;

export const isUserKeyName = (name: string): boolean => USER_KEYS.test(name);

/** Resource names that hold the API's users (accounts, members, customers…): what a sign-up creates. */
export const USER_RESOURCES = /^(user|account|member|customer|profile|person|people|player|employee|client_user)$/;

/**
 * The resource and field a key-like name points at: `userId`/`user_id`/`userUuid` → user.id, `orderId` → order.id,
 * `username` → user.username; undefined for names that name no object (`name`, `email`, `total`).
 */
export function referencedKey(name: string): { resource: string; field: string } | undefined {
  if (isUserKeyName(name)) return { resource: 'user', field: name };
  const words = wordsOf(name);
  if (words.length < 2) return undefined;
  const last = words[words.length - 1];
  if (!['id', 'uuid', 'guid', 'key', 'slug', 'ids'].includes(last)) return undefined;
  const owner = words.slice(0, -1);
  // `owner_id`, `created_by_id`, `author_id` name a user.
  if (owner.length === 1 && /^(owner|author|creator|created|uploader|requester|assignee|member)$/.test(owner[0]))
    return { resource: 'user', field: last === 'ids' ? 'id' : last };
  if (owner.at(-1) === 'by') return { resource: 'user', field: 'id' };
  return { resource: owner.join('_').replace(/s$/, ''), field: last === 'ids' ? 'id' : last };
}

/** Whether two resource names are the same kind of object (`user` and `account` both hold users). */
export function sameKind(a: string, b: string): boolean {
  return a === b || (USER_RESOURCES.test(a) && USER_RESOURCES.test(b));
}
