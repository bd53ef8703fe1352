/**
 * Lists of platform data (policy profiles, templates) in the list shape of every other list (docs/architecture.md §1.5):
 * `{ data, nextCursor }`, `?limit=` and an opaque `?cursor=` bound to the organization. Items are ordered by id.
 */
import type { Request, Response } from 'express';
import type { ServiceConfig } from '../../config.js';
import { pageResult, parseListParams, setNextLink, type ListBinding } from '../../http/pagination.js';

/** Platform data has no creation time of its own: every item sorts at the epoch, then by id. */
const EPOCH = new Date(0);

export function sendPlatformDataList<T extends { id: string }>(
  req: Request,
  res: Response,
  config: Pick<ServiceConfig, 'publicBaseUrl'>,
  resource: string,
  items: readonly T[],
): void {
  const binding: ListBinding = { resource, organizationId: req.organization?.id ?? '', filters: {} };
  const params = parseListParams(req, binding);
  const keyed = items
    .map((item) => ({ createdAt: EPOCH, id: item.id, item }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .filter((k) => !params.after || k.id > params.after.id)
    .slice(0, params.limit + 1);
  const { page, nextCursor } = pageResult(keyed, params, binding);
  setNextLink(res, req, config.publicBaseUrl, nextCursor, params, binding);
  res.json({ data: page.map((k) => k.item), nextCursor });
}
