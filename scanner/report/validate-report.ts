/** Validates a report against `schemas/report/2024-10/report.schema.json`; problems come back as `path message` lines. */
import { toFieldErrors, validatorFor } from '../../lib/json-schema.js';
import { scannerError } from '../errors.js';
import { REPORT_SCHEMA_ID } from './report-types.js';

export function reportProblems(report: unknown): string[] {
  const validate = validatorFor(REPORT_SCHEMA_ID);
  if (validate(report)) return [];
  return toFieldErrors(validate.errors).map((e) => `${e.path || '(root)'} ${e.message}`);
}

/** Throws `invalid_report` (one line, the first problem) when the report does not validate. */
export function assertValidReport(report: unknown, source = 'report'): void {
  const problems = reportProblems(report);
  if (problems.length === 0) return;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
  throw scannerError('invalid_report', `${source}: ${problems[0]}${more}`, {
    fields: problems.map((message) => ({ path: source, message })),
  });
}
