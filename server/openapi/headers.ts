/**
 * Response headers of the OpenAPI document (`components.headers`, by their HTTP name): the ones every success of
 * the API carries, the ones an operation's traits imply (a list's `Link`, a create's `Location`) and the ones
 * routes name in `doc.response.headers`.
 */
type Header = { description: string; schema: Record<string, unknown> };

const text = { type: 'string' };

export const RESPONSE_HEADERS = {
  RateLimit: { description: 'Remaining quota (draft-ietf-httpapi-ratelimit-headers).', schema: text },
  'RateLimit-Policy': { description: 'The quota policy (draft-ietf-httpapi-ratelimit-headers).', schema: text },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
  ETag: { description: 'Strong validator of this representation (its revision).', schema: text },
  Location: { description: 'Absolute URL of the new resource.', schema: { type: 'string', format: 'uri' } },
  'Idempotent-Replayed': {
    description: '`true` when this is the stored response of an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
  Link: { description: '`rel="next"` link to the next page (RFC 8288).', schema: text },
  'Cache-Control': { description: '`no-store`: the body carries a credential.', schema: text },
  Allow: { description: 'The methods the path allows.', schema: text },
  'WWW-Authenticate': { description: 'The bearer challenge (RFC 6750 §3).', schema: text },
} satisfies Record<string, Header>;

export type ResponseHeader = keyof typeof RESPONSE_HEADERS;

/** `{ Name: { $ref } }` for a response's `headers`. */
export function headerRefs(names: readonly ResponseHeader[]): Record<string, { $ref: string }> {
  return Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}
