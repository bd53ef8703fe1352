/**
 * Where an operation sits for what a server sets up per mounted sub-API (middleware: a token verifier, a CORS policy):
 * its origin and the first segment of its path template (`/legacy/…` beside `/v2/…`, `/audit-log` beside `/orders`).
 */
import type { Operation } from '../../scanner/api.js';

/** Operations under different mounts are never assumed to share what their server set up per mount. */
export function pathMount(operation: Operation): string {
  const segment = operation.path.split('/').find((part) => part !== '') ?? '';
  return `${new URL(operation.url).origin} /${segment}`;
}
