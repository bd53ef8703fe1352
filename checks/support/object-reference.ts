/**
 * Whether an operation addresses an object (the precondition of the bola.* checks): an OpenAPI path template with a
 * path parameter (`/orders/{id}`), or — for curl scans, where only the URL is known — a path segment that looks like
 * an identifier (a number, a UUID, a long hex string, a ULID, or a prefixed random id such as `reg_4fZ0…`). Also where
 * the object can be read back (`objectUrl`) and whether its id is the first identity's (`invented ids`).
 */
import type { Operation } from '../../scanner/api.js';

const ID_SEGMENTS = [
  /^\d+$/,
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  /^[0-9a-f]{16,}$/i,
  /^[0-9A-HJKMNP-TV-Z]{26}$/,
  // A short lower-case prefix, a separator, then random-looking characters with at least one digit.
  /^[a-z]{1,10}[_-](?=[A-Za-z0-9]*\d)[A-Za-z0-9]{8,}$/,
];

function isIdSegment(segment: string): boolean {
  return ID_SEGMENTS.some((pattern) => pattern.test(segment));
}

/** `true`, or the reason the operation addresses no object. */
export function referencesObject(operation: Operation): true | string {
  if (/\{[^}]+\}/.test(operation.path)) return true;
  const segments = new URL(operation.url).pathname.split('/').map((s) => decodeURIComponent(s));
  return segments.some(isIdSegment) ? true : 'the path names no object (no path parameter or id-like segment)';
}

/**
 * The URL the addressed object is read at: for PUT/PATCH the operation's own URL (a GET on the URI a write replaces
 * reads it back, RFC 9110 §9.3.4), else the path up to its last object id (`POST /orders/{id}/cancel` → `/orders/{id}`).
 */
export function objectUrl(operation: Operation): string {
  const method = operation.method.toUpperCase();
  const url = new URL(operation.url);
  if (method === 'PUT' || method === 'PATCH' || method === 'DELETE') return url.href;
  const segments = url.pathname.split('/');
  const template = operation.path.split('/');
  const offset = segments.length - template.length;
  let last = -1;
  segments.forEach((segment, index) => {
    const fromTemplate = offset >= 0 && index >= offset && /\{[^}]+\}/.test(template[index - offset] ?? '');
    if (fromTemplate || isIdSegment(decodeURIComponent(segment))) last = index;
  });
  if (last < 0) return url.href;
  url.pathname = segments.slice(0, last + 1).join('/');
  url.search = '';
  return url.href;
}

/**
 * Path parameters whose value the scanner generated and never replaced with an id from the first identity's
 * responses (OpenAPI scans): such a URL names nobody's object, or someone else's, so nothing about it is the first
 * identity's to protect.
 */
export function inventedIds(operation: Operation): string[] {
  return (operation.pathParameters ?? []).filter((p) => !p.given && !operation.objectIds?.[p.name]).map((p) => p.name);
}

/** Last segments that name a view or an action of a collection, not one of its members. */
const NOT_NAMES = new Set([
  'me',
  'self',
  'current',
  'mine',
  'my',
  'all',
  'list',
  'search',
  'new',
  'count',
  'stats',
  'export',
  'import',
  'latest',
  'recent',
  'featured',
  'public',
  'settings',
  'config',
  'health',
  'status',
  'version',
  'login',
  'logout',
  'register',
  'signup',
  'token',
  'refresh',
]);

/**
 * curl scans: whether the last path segment names a member of the collection before it — an id, or a name under a
 * plural segment (`/users/alice`, `/repos/gatehouse`, `/files/report.pdf`), so `bola.read` treats it as an object.
 */
export function lastSegmentNamesObject(url: string): boolean {
  const segments = new URL(url).pathname
    .split('/')
    .filter(Boolean)
    .map((s) => decodeURIComponent(s));
  const last = segments.at(-1);
  const parent = segments.at(-2);
  if (!last || !parent) return false;
  if (isIdSegment(last)) return true;
  return (
    /s$/i.test(parent) &&
    !NOT_NAMES.has(last.toLowerCase()) &&
    /^(?=.*[A-Za-z])[\w.@+~-]{2,64}$/.test(last) &&
    !/^v\d+$/i.test(last)
  );
}
