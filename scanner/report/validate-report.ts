/** Validates a report against `schemas/report/2024-10/report.schema.json`; problems come back as `path message` lines. */
import { toFieldErrors } from '../../lib/schema-errors.js';
import { scannerError } from '../errors.js';
import { reportValidator } from './report-validator.js';

export function reportProblems(report: unknown): string[] {
  const validate = reportValidator();
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
