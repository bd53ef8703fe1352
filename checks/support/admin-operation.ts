/**
 * Whether an operation looks like an administrative function (the precondition of bfla.admin_operation): a path
 * segment such as `admin`, `internal` or `management`, or an operationId / tag that names administration.
 */
import type { Operation } from '../../scanner/api.js';

const ADMIN_SEGMENTS = new Set([
  'admin',
  'admins',
  '_admin',
  'administrator',
  'administration',
  'internal',
  'manage',
  'management',
  'superuser',
  'sudo',
  'staff',
  'backoffice',
  'back-office',
]);
const ADMIN_WORDS = /(^|[^a-z])admin|administ|superuser|backoffice|(^|[^a-z])internal([^a-z]|$)/i;

export function looksAdministrative(operation: Operation): true | string {
  const segments = new URL(operation.url).pathname.toLowerCase().split('/');
  const segment = segments.find((s) => ADMIN_SEGMENTS.has(s));
  if (segment) return true;
  if (operation.operationId && ADMIN_WORDS.test(operation.operationId)) return true;
  if ((operation.tags ?? []).some((tag) => ADMIN_WORDS.test(tag))) return true;
  return 'the operation does not look administrative (path segment, operationId or tag)';
}
