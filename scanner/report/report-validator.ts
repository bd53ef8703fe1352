/**
 * The validator of the 2024-10 report (schemas/report/) every written report goes through. Compiled on first use
 * here; the scanner's bundle replaces this module with the validator compiled ahead of time (scanner/bundle/).
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { validatorFor } from '../../lib/json-schema.js';
import { REPORT_SCHEMA_ID } from './report-types.js';

export function reportValidator(): ValidateFunction {
  return validatorFor(REPORT_SCHEMA_ID);
}
