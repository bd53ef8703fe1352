/**
 * Request bodies are checked against their JSON Schema in `schemas/api/` with the one Ajv instance: unknown fields,
 * wrong types and `$`-operator objects become 422 `validation_failed` listing every problem (no mass assignment).
 */
import type { FieldError } from '../../lib/app-error.js';
import { toFieldErrors, validatorFor } from '../../lib/json-schema.js';
import { apiError } from '../errors.js';

/** A 64 KiB body can hold tens of thousands of wrong items; the answer names the first ones and counts the rest. */
export const MAX_FIELD_ERRORS = 100;

export function validateBody<T>(schemaId: string, body: unknown): T {
  const validate = validatorFor<T>(schemaId);
  // No body at all is validated as an empty object, so missing required fields are named.
  const value = body === undefined ? {} : body;
  if (validate(value)) return value;
  // `if`/`then` failures only repeat the `required` errors beside them.
  const errors = (validate.errors ?? []).filter((e) => e.keyword !== 'if');
  const seen = new Set<string>();
  const fields: FieldError[] = [];
  for (const field of toFieldErrors(errors)) {
    const key = `${field.path}\n${field.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      fields.push(field);
    }
  }
  if (fields.length > MAX_FIELD_ERRORS) {
    const rest = fields.length - MAX_FIELD_ERRORS;
    fields.length = MAX_FIELD_ERRORS;
    fields.push({ path: '', message: `and ${rest} more problems` });
  }
  throw apiError('validation_failed', 'The request body is invalid.', { fields });
}
