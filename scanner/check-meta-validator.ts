/**
 * The validator of check meta (schemas/check-meta.schema.json) the loader runs on every check. Compiled on first use
 * here; the scanner's bundle replaces this module with the validator compiled ahead of time (scanner/bundle/).
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { validatorFor } from '../lib/json-schema.js';

export const CHECK_META_SCHEMA_ID = 'https://gatehouse.dev/schemas/check-meta.schema.json';

export function checkMetaValidator(): ValidateFunction {
  return validatorFor(CHECK_META_SCHEMA_ID);
}
