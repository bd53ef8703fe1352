/**
 * Cursor pagination (research §2.9): `?limit=` 1–100 (default 20) and an opaque `?cursor=` that carries the last
 * (createdAt, id) and a hash of what the list is bound to (resource, organization, filters). A cursor replayed
 * against another organization or filter is a 400 `invalid_cursor`.
 */
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { apiError } from '../errors.js';
import type { PageKey } from '../store/keyset-page.js';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

export interface ListBinding {
  resource: string;
  organizationId: string;
  /** Filters in effect (absent ones undefined); part of the cursor's binding. */
  filters: Record<string, string | undefined>;
}

export interface ListParams {
  limit: number;
  after?: PageKey;
}

function bindingHash(binding: ListBinding): string {
  const filters = Object.keys(binding.filters)
    .sort()
    .map((k) => [k, binding.filters[k] ?? null]);
  return createHash('sha256')
    .update(JSON.stringify([binding.resource, binding.organizationId, filters]))
    .digest('base64url')
    .slice(0, 22);
}

export function encodeCursor(key: PageKey, binding: ListBinding): string {
  return Buffer.from(JSON.stringify({ t: key.createdAt.getTime(), i: key.id, b: bindingHash(binding) })).toString('base64url');
}

export function decodeCursor(cursor: string, binding: ListBinding): PageKey {
  const invalid = () => apiError('invalid_cursor', 'The cursor is malformed or belongs to another list.');
  if (cursor.length > 512 || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const { t, i, b } = (parsed ?? {}) as { t?: unknown; i?: unknown; b?: unknown };
  if (typeof t !== 'number' || !Number.isSafeInteger(t) || typeof i !== 'string' || i.length > 100 || b !== bindingHash(binding)) {
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
export function pageResult<T extends PageKey>(items: T[], params: ListParams, binding: ListBinding): { page: T[]; nextCursor: string | null } {
  if (items.length <= params.limit) return { page: items, nextCursor: null };
  const page = items.slice(0, params.limit);
  return { page, nextCursor: encodeCursor(page[page.length - 1], binding) };
}

/** `Link: <…>; rel="next"` (RFC 8288) built from the configured public base URL, never from the Host header. */
export function setNextLink(res: Response, req: Request, publicBaseUrl: string, nextCursor: string | null, params: ListParams, binding: ListBinding): void {
  if (nextCursor === null) return;
  const path = req.originalUrl.split('?')[0];
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(binding.filters)) if (value !== undefined) query.set(key, value);
  query.set('limit', String(params.limit));
  query.set('cursor', nextCursor);
  res.setHeader('Link', `<${publicBaseUrl.replace(/\/$/, '')}${path}?${query.toString()}>; rel="next"`);
}
