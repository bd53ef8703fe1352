/**
 * Request bodies are checked against their JSON Schema in `schemas/api/` with the one Ajv instance: unknown fields,
 * wrong types and `$`-operator objects become 422 `validation_failed` listing every problem (no mass assignment).
 */
import { toFieldErrors, validatorFor } from '../../lib/json-schema.js';
import { apiError } from '../errors.js';

export function validateBody<T>(schemaId: string, body: unknown): T {
  const validate = validatorFor<T>(schemaId);
  // No body at all is validated as an empty object, so missing required fields are named.
  const value = body === undefined ? {} : body;
  if (validate(value)) return value;
  // `if`/`then` failures only repeat the `required` errors beside them.
  const errors = (validate.errors ?? []).filter((e) => e.keyword !== 'if');
  const fields = toFieldErrors(errors);
  const unique = fields.filter((f, i) => fields.findIndex((g) => g.path === f.path && g.message === f.message) === i);
  throw apiError('validation_failed', 'The request body is invalid.', { fields: unique });
}
