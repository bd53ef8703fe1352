/**
 * `--baseline <report.json>`: findings already in an earlier report (same operation id and issue id) are dropped, so
 * CI can fail only on what is new. The baseline must be a valid 2024-10 JSON report.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { scannerError } from './errors.js';
import type { Report } from './report/report-types.js';
import { reportProblems } from './report/validate-report.js';
import type { ScanOutcome } from './scan-result.js';

const key = (operationId: string, issueId: string): string => `${operationId}\u0000${issueId}`;

export function loadBaseline(path: string, cwd: string): Set<string> {
  let report: Report;
  try {
    report = JSON.parse(readFileSync(resolve(cwd, path), 'utf8')) as Report;
  } catch (error) {
    throw scannerError(
      'invalid_argument',
      `--baseline ${path}: ${error instanceof SyntaxError ? 'not JSON' : 'cannot be read'}`,
    );
  }
  const problems = reportProblems(report);
  if (problems.length > 0)
    throw scannerError('invalid_argument', `--baseline ${path}: not a valid report (${problems[0]})`);
  const known = new Set<string>();
  for (const item of report.reports) {
    for (const issue of item.issues)
      if (issue.status === 'failed' && item.operation) known.add(key(item.operation.id, issue.id));
  }
  return known;
}

/** The outcome without baseline findings; a check left with none is passed, saying why. */
export function withoutBaseline(outcome: ScanOutcome, known: Set<string>): ScanOutcome {
  return {
    ...outcome,
    results: outcome.results.map((result) => {
      if (result.status !== 'failed') return result;
      const findings = result.findings.filter((f) => !known.has(key(result.operationId, f.issueId)));
      if (findings.length === result.findings.length) return result;
      return findings.length > 0
        ? { ...result, findings }
        : { ...result, findings, status: 'passed', reason: 'every finding is in the baseline' };
    }),
  };
}
