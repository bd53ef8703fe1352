/** Builds a minimal `Operation` for the unit tests of checks/support helpers. */
import type { Operation } from '../../../scanner/api.js';

export function operation(fields: Partial<Operation> & { url: string }): Operation {
  const url = new URL(fields.url);
  return {
    id: `GET ${url.pathname}`,
    method: 'GET',
    path: url.pathname,
    headers: {},
    cookies: {},
    securitySchemes: [],
    ...fields,
  };
}
