/**
 * One operation of the public API, declared once beside its handler: what mounts it (method, path, scope,
 * idempotency, handler) and what the OpenAPI document says of it (`doc`). server/api-routes.ts lists every route;
 * http/mount-routes.ts turns a list into an Express router (405s and `Allow` included), and
 * server/openapi/build-document.ts turns the same list into the document's paths (schemas/openapi.json).
 */
import type { RequestHandler } from 'express';
import type { ApiDeps } from '../deps.js';
import type { errorCodes } from '../errors.js';
import type { Scope } from '../principal.js';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Response headers an operation names itself (the others follow from its traits: openapi/headers.ts). */
type DocumentedHeader = 'ETag' | 'Cache-Control';

/** A status server/errors.ts answers with. */
type ErrorStatus = (typeof errorCodes)[keyof typeof errorCodes]['status'];

interface OperationDoc {
  operationId: string;
  summary: string;
  description?: string;
  /** The document's tag (its group); tags are listed in the order routes first name them. */
  tag: string;
  /** Descriptions of the path's own parameters by name (`:id` → `id`); the organization's is written once. */
  pathParams?: Record<string, string>;
  /**
   * A list (`?limit=`, `?cursor=`, the `Link` header, and the `{ data, nextCursor }` page of `response.schema`);
   * `statuses` adds the `?status=` filter.
   */
  list?: { statuses?: readonly string[] };
  /** The JSON body's schema (`$id` under schemas/); `optional` when the operation also takes no body at all. */
  body?: { schema: string; optional?: boolean; description?: string };
  /** `If-Match` is honoured (412 when stale); a string says what the entity tag is of, when not of this resource. */
  ifMatch?: true | string;
  response: {
    /** 200 unless said; a 201 carries `Location`. */
    status?: 200 | 201 | 204;
    description: string;
    /** The body's schema `$id` (the item's, for a list); none for 204. */
    schema?: string;
    headers?: DocumentedHeader[];
  };
  /**
   * Error statuses this operation answers beyond the ones every operation does (401, 403, 404, 405, 429, 500, 503)
   * and the ones its inputs imply (400 for a query or a body, 413/415/422 for a body, 412 for If-Match, 409/422 for an
   * Idempotency-Key).
   */
  errors?: ErrorStatus[];
}

export interface ApiRoute {
  method: Method;
  /** Express path (`/registrations/:id`) below `/api/v1`, or below the organization for organization-scoped routes. */
  path: string;
  /** The scope the token must hold; checked before anything else of the route. */
  scope: Scope;
  /** Create POSTs: `Idempotency-Key` is honoured (http/idempotency.ts) and documented. */
  idempotent?: boolean;
  /** Builds the route's handler from the service's dependencies (once, when the router is made). */
  handler: (deps: ApiDeps) => RequestHandler;
  doc: OperationDoc;
}
