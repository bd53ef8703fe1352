/**
 * Whether an operation addresses an object (the precondition of the bola.* checks): an OpenAPI path template with a
 * path parameter (`/orders/{id}`), or — for curl scans, where only the URL is known — a path segment that looks like
 * an identifier (a number, a UUID, a long hex string, a ULID, or a prefixed random id such as `reg_4fZ0…`).
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

export function isIdSegment(segment: string): boolean {
  return ID_SEGMENTS.some((pattern) => pattern.test(segment));
}

/** `true`, or the reason the operation addresses no object. */
export function referencesObject(operation: Operation): true | string {
  if (/\{[^}]+\}/.test(operation.path)) return true;
  const segments = new URL(operation.url).pathname.split('/').map((s) => decodeURIComponent(s));
  return segments.some(isIdSegment) ? true : 'the path names no object (no path parameter or id-like segment)';
}
