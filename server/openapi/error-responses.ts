/**
 * The document's error responses (`components.responses`), one per status, written from the code table of
 * server/errors.ts: each names every code of its status with the code's own doc line, so a new code is documented
 * where it is declared. A code with a status not listed here stops the generator until it gets a response name.
 */
import { errorCodes } from '../errors.js';
import { headerRefs, type ResponseHeader } from './headers.js';

const ERROR_SCHEMA = 'https://gatehouse.dev/schemas/api/error.schema.json';

/** Each error status: its response's name in `components.responses` and the headers that come with it. */
const BY_STATUS: Record<number, { name: string; headers?: ResponseHeader[] }> = {
  400: { name: 'BadRequest' },
  401: { name: 'Unauthorized', headers: ['WWW-Authenticate'] },
  403: { name: 'Forbidden', headers: ['WWW-Authenticate'] },
  404: { name: 'NotFound' },
  405: { name: 'MethodNotAllowed', headers: ['Allow'] },
  409: { name: 'Conflict', headers: ['Retry-After'] },
  412: { name: 'PreconditionFailed', headers: ['ETag'] },
  413: { name: 'PayloadTooLarge' },
  415: { name: 'UnsupportedMediaType' },
  422: { name: 'ValidationFailed' },
  429: { name: 'TooManyRequests', headers: ['Retry-After', 'RateLimit', 'RateLimit-Policy'] },
  500: { name: 'InternalError' },
  503: { name: 'Unavailable', headers: ['Retry-After'] },
};

function responseOf(status: number): { name: string; headers?: ResponseHeader[] } {
  const response = BY_STATUS[status];
  if (!response)
    throw new Error(`error status ${status} (server/errors.ts) has no response in server/openapi/error-responses.ts`);
  return response;
}

/** `components.responses`: every status of server/errors.ts, in status order. */
export function errorResponses(): Record<string, unknown> {
  const statuses = [...new Set(Object.values(errorCodes).map((entry) => entry.status))].sort((a, b) => a - b);
  return Object.fromEntries(
    statuses.map((status) => {
      const { name, headers } = responseOf(status);
      const codes = Object.entries(errorCodes).filter(([, entry]) => entry.status === status);
      const response = {
        description: codes.map(([code, entry]) => `\`${code}\`: ${entry.doc}`).join(' '),
        content: { 'application/json': { schema: { $ref: ERROR_SCHEMA } } },
        ...(headers ? { headers: headerRefs(headers) } : {}),
      };
      return [name, response];
    }),
  );
}

/** `{ "404": { $ref: "#/components/responses/NotFound" }, … }` for an operation's error statuses. */
export function errorResponseRefs(statuses: readonly number[]): Record<string, { $ref: string }> {
  return Object.fromEntries(
    statuses.map((status) => [String(status), { $ref: `#/components/responses/${responseOf(status).name}` }]),
  );
}
