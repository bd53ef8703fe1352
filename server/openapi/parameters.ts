/** The request parameters an operation's traits imply: a list's query, a create's Idempotency-Key, If-Match, path ids. */
import { DEFAULT_LIMIT, MAX_LIMIT } from '../http/pagination.js';
import { idPattern } from '../ids.js';

type Parameter = Record<string, unknown>;

/** `?limit=`, `?cursor=` and, for lists filtered by status, `?status=` (http/pagination.ts). */
export function listParameters(statuses: readonly string[] | undefined): Parameter[] {
  return [
    {
      name: 'limit',
      in: 'query',
      description: `Page size, 1–${MAX_LIMIT}.`,
      schema: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
    },
    {
      name: 'cursor',
      in: 'query',
      description: 'Opaque cursor from `nextCursor` of the previous page; bound to the organization and the filters.',
      schema: { type: 'string' },
    },
    ...(statuses
      ? [{ name: 'status', in: 'query', description: 'Only items with this status.', schema: { enum: [...statuses] } }]
      : []),
  ];
}

/**
 * The key as http/idempotency.ts `parseIdempotencyKey` takes it: 8–255 visible characters other than `"`, `,` and
 * `\`, bare or as a quoted Structured Field String (test/server/http/idempotency-key-schema.test.ts compares both).
 */
export const IDEMPOTENCY_KEY_PARAMETER: Parameter = {
  name: 'Idempotency-Key',
  in: 'header',
  description:
    '8–255 visible characters (a UUID is recommended), scoped to the token subject and the organization. A retry within 24 h replays the stored success; the same key with a different request gives 422 `idempotency_key_reused`; while the first is still running, 409 `conflict`. Failed requests release the key.',
  schema: {
    type: 'string',
    minLength: 8,
    maxLength: 257,
    pattern: String.raw`^(?:[\x21\x23-\x2b\x2d-\x5b\x5d-\x7e]{8,255}|"[\x21\x23-\x2b\x2d-\x5b\x5d-\x7e]{8,255}")$`,
  },
};

export function ifMatchParameter(description: string | undefined): Parameter {
  return {
    name: 'If-Match',
    in: 'header',
    description:
      description ??
      'Strong ETag of the representation the change is based on (RFC 9110 §13.1.1); a stale one gives 412.',
    schema: { type: 'string' },
  };
}

/** The organization of every organization-scoped path. */
export const ORGANIZATION_ID_PARAMETER: Parameter = {
  name: 'organizationId',
  in: 'path',
  required: true,
  description: 'The organization (`org_…`).',
  schema: { type: 'string', pattern: idPattern('org').source },
};

export function pathParameter(name: string, description: string): Parameter {
  return { name, in: 'path', required: true, description, schema: { type: 'string' } };
}
