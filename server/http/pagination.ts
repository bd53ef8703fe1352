/**
 * Cursor pagination (docs/architecture.md §R.3): `?limit=` 1–100 (default 20) and an opaque `?cursor=` that carries the last
 * (createdAt, id), signed with HMAC-SHA256 over the cursor and what the list is bound to (resource, organization,
 * filters). A cursor replayed against another organization or filter, or forged (with an unkeyed hash
 * anyone could mint a cursor with a ±9e15 timestamp the database would choke on), is a 400 `invalid_cursor`.
 *
 * The key is CURSOR_SECRET, or random per process when unset: then a cursor only works on the instance that issued
 * it, so several instances behind one load balancer must share one CURSOR_SECRET.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import { apiError } from '../errors.js';
import type { PageKey } from '../db/keyset-page.js';

/** Page sizes (`?limit=`): also what the OpenAPI document states for every list. */
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

export interface ListBinding {
  resource: string;
  organizationId: string;
  /** Filters in effect (absent ones undefined); part of the cursor's binding. */
  filters: Record<string, string | undefined>;
}

interface ListParams {
  limit: number;
  after?: PageKey;
}

let cursorKey: Buffer = randomBytes(32);

/** Sets the signing key from CURSOR_SECRET; without one the per-process random key stays. */
export function configureCursorSecret(secret: string | undefined): void {
  if (secret) cursorKey = Buffer.from(secret, 'utf8');
}

/** Timestamps a signed cursor may carry (1970 to 9999): what a store holds, never what a Date or BSON rejects. */
const MIN_TIME = 0;
const MAX_TIME = Date.UTC(9999, 11, 31);

function signature(payload: string, binding: ListBinding): Buffer {
  const filters = Object.keys(binding.filters)
    .sort()
    .map((k) => [k, binding.filters[k] ?? null]);
  return createHmac('sha256', cursorKey)
    .update(JSON.stringify([payload, binding.resource, binding.organizationId, filters]))
    .digest()
    .subarray(0, 16);
}

export function encodeCursor(key: PageKey, binding: ListBinding): string {
  const payload = Buffer.from(JSON.stringify({ t: key.createdAt.getTime(), i: key.id })).toString('base64url');
  return `${payload}.${signature(payload, binding).toString('base64url')}`;
}

export function decodeCursor(cursor: string, binding: ListBinding): PageKey {
  const invalid = () => apiError('invalid_cursor', 'The cursor is malformed or belongs to another list.');
  const match = cursor.length <= 512 ? /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{22})$/.exec(cursor) : null;
  if (!match) throw invalid();
  const [, payload, mac] = match as unknown as [string, string, string];
  const given = Buffer.from(mac, 'base64url');
  const expected = signature(payload, binding);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const { t, i } = (parsed ?? {}) as { t?: unknown; i?: unknown };
  if (
    typeof t !== 'number' ||
    !Number.isSafeInteger(t) ||
    t < MIN_TIME ||
    t > MAX_TIME ||
    typeof i !== 'string' ||
    i.length > 100
  ) {
    throw invalid();
  }
  return { createdAt: new Date(t), id: i };
}

/** A single-valued query parameter, or undefined; repeating it is a 400. */
export function queryParam(req: Request, name: string): string | undefined {
  const value = req.query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw apiError('invalid_request', `The query parameter ${name} must be given once.`);
  return value;
}

export function parseListParams(req: Request, binding: ListBinding): ListParams {
  const rawLimit = queryParam(req, 'limit');
  let limit = DEFAULT_LIMIT;
  if (rawLimit !== undefined) {
    if (!/^\d{1,3}$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > MAX_LIMIT) {
      throw apiError('invalid_request', `limit must be an integer from 1 to ${MAX_LIMIT}.`);
    }
    limit = Number(rawLimit);
  }
  const cursor = queryParam(req, 'cursor');
  return cursor === undefined ? { limit } : { limit, after: decodeCursor(cursor, binding) };
}

/** Ask the repository for one more than `limit`; this trims the page and names the next cursor. */
export function pageResult<T extends PageKey>(
  items: T[],
  params: ListParams,
  binding: ListBinding,
): { page: T[]; nextCursor: string | null } {
  if (items.length <= params.limit) return { page: items, nextCursor: null };
  const page = items.slice(0, params.limit);
  return { page, nextCursor: encodeCursor(page[page.length - 1], binding) };
}

/** `Link: <…>; rel="next"` (RFC 8288) built from the configured public base URL, never from the Host header. */
export function setNextLink(
  res: Response,
  req: Request,
  publicBaseUrl: string,
  nextCursor: string | null,
  params: ListParams,
  binding: ListBinding,
): void {
  if (nextCursor === null) return;
  const path = req.originalUrl.split('?')[0];
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(binding.filters)) if (value !== undefined) query.set(key, value);
  query.set('limit', String(params.limit));
  query.set('cursor', nextCursor);
  res.setHeader('Link', `<${publicBaseUrl.replace(/\/$/, '')}${path}?${query.toString()}>; rel="next"`);
}
