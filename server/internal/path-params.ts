/** Path parameters of the internal surface: a malformed id is a 404, never a query (docs/architecture.md §1.3). */
import type { Request } from 'express';
import { apiError } from '../errors.js';
import { isId } from '../ids.js';

export function organizationIdOf(req: Request): string {
  const value = req.params.organizationId;
  if (!isId('org', value)) throw apiError('not_found', 'No such organization.');
  return value;
}

export function registrationIdOf(req: Request): string {
  const value = req.params.registrationId;
  if (!isId('reg', value)) throw apiError('not_found', 'No such registration.');
  return value;
}

export function changeSetIdOf(req: Request): string {
  const value = req.params.changeSetId;
  if (!isId('cs', value)) throw apiError('not_found', 'No such change set.');
  return value;
}

/** `?limit=` between 1 and `max` (default `fallback`); anything else is 400. */
export function limitOf(req: Request, fallback: number, max: number): number {
  const raw = req.query.limit;
  if (raw === undefined) return fallback;
  const value = typeof raw === 'string' && /^[0-9]{1,4}$/.test(raw) ? Number(raw) : NaN;
  if (!(value >= 1 && value <= max)) throw apiError('invalid_request', `limit must be an integer from 1 to ${max}.`);
  return value;
}

/** An optional string query parameter (a repeated one is 400). */
export function queryString(req: Request, name: string): string | undefined {
  const raw = req.query[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string') throw apiError('invalid_request', `${name} must be given once.`);
  return raw;
}
