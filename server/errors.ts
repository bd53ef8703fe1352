/** The registration service's error codes (docs/architecture.md §1.7): each code once, with its status and meaning. */
import { AppError, type AppErrorOptions } from '../lib/app-error.js';

export const errorCodes = {
  invalid_request: { status: 400, doc: 'The request is malformed (bad JSON, bad query parameter, bad header).' },
  invalid_cursor: {
    status: 400,
    doc: 'The pagination cursor is malformed or belongs to another organization or filter.',
  },
  unauthorized: { status: 401, doc: 'No bearer token was sent (`WWW-Authenticate: Bearer` without `error`).' },
  invalid_token: { status: 401, doc: 'The bearer token is invalid, expired, revoked or not meant for this API.' },
  insufficient_scope: {
    status: 403,
    doc: 'The token lacks a scope the operation needs (named in `WWW-Authenticate`).',
  },
  forbidden: {
    status: 403,
    doc: "The caller's role in the organization does not allow this (a viewer writes, a developer acts on another's registration, a non-owner handles secrets or webhooks).",
  },
  plan_restricted: {
    status: 403,
    doc: "The organization's plan does not allow this (registration limit, change sets, grant type, profile).",
  },
  not_found: {
    status: 404,
    doc: 'No such route or resource, or it belongs to an organization the caller has no grant for.',
  },
  default_organization_not_set: {
    status: 404,
    doc: 'A default-organization path was used but the caller has no default organization.',
  },
  method_not_allowed: { status: 405, doc: 'The path exists but not with this method (`Allow` lists the methods).' },
  invalid_transition: { status: 409, doc: "The action is not allowed in the resource's current status." },
  conflict: {
    status: 409,
    doc: 'A conflicting operation exists (a pending change set, an idempotent request still in flight).',
  },
  precondition_failed: { status: 412, doc: '`If-Match` does not match the current `ETag`.' },
  payload_too_large: { status: 413, doc: 'The request body is larger than 64 KiB.' },
  unsupported_media_type: { status: 415, doc: 'Request bodies must be `application/json`.' },
  validation_failed: {
    status: 422,
    doc: 'The body is well-formed JSON but invalid; every problem is listed in `fields`.',
  },
  idempotency_key_reused: { status: 422, doc: 'The `Idempotency-Key` was used before with a different request.' },
  rate_limited: { status: 429, doc: 'Too many requests; see `Retry-After`, `RateLimit` and `RateLimit-Policy`.' },
  internal_error: { status: 500, doc: 'An unexpected error; details are logged under the request id, never returned.' },
  unavailable: {
    status: 503,
    doc: 'The database or the authorization server is unavailable; retry after `Retry-After` seconds.',
  },
} as const satisfies Record<string, { status: number; doc: string }>;

export type ErrorCode = keyof typeof errorCodes;

/** An AppError with the status that belongs to the code. */
export function apiError(code: ErrorCode, message: string, options: Omit<AppErrorOptions, 'status'> = {}): AppError {
  return new AppError(code, message, { ...options, status: errorCodes[code].status });
}
