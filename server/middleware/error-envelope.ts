/** The one JSON error body of the service (docs/architecture.md §1.7): `{ error: { code, message, fields?, requestId } }`. */
import type { FieldError } from '../../lib/app-error.js';

export interface ErrorEnvelope {
  error: { code: string; message: string; fields?: FieldError[]; requestId: string };
}

export function errorEnvelope(code: string, message: string, requestId: string, fields?: FieldError[]): ErrorEnvelope {
  return { error: { code, message, ...(fields && fields.length > 0 ? { fields } : {}), requestId } };
}
