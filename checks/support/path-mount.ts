/**
 * Where an operation sits for what a server sets up per mounted sub-API (middleware: a token verifier, a CORS policy):
 * its origin and its path template up to the first segment that names something (`/legacy/…` beside `/v2/…`,
 * `/audit-log` beside `/orders`, `/api/v1/users` beside `/api/v1/orders`).
 */
import type { Operation } from '../../scanner/api.js';

/**
 * Leading segments that name no sub-API of their own: a common prefix (`api`, `rest`), a version (`v1`, `v2.1`) or
 * a path parameter (`{tenant}`). The mount runs on to the first other segment, so `/api/legacy/…` and `/api/v2/orders`
 * stay apart while a prefix every path shares does not make the whole API one mount.
 */
const PREFIX = /^(?:api|apis|rest|services?|v\d+(?:\.\d+)*|\{[^}]*\})$/i;

/** Operations under different mounts are never assumed to share what their server set up per mount. */
export function pathMount(operation: Operation): string {
  const segments = operation.path.split('/').filter((part) => part !== '');
  const end = segments.findIndex((segment) => !PREFIX.test(segment));
  const mount = end === -1 ? segments : segments.slice(0, end + 1);
  return `${new URL(operation.url).origin} /${mount.join('/')}`;
}
