/** The results and findings of one check in a GraphQL demo scan. */
import type { CheckResult, ScanOutcome } from '../../scanner/scan-result.js';

/** The result of `checkId` on `operationId`, or an error naming what is missing. */
export function resultOn(outcome: ScanOutcome, checkId: string, operationId: string): CheckResult {
  const result = outcome.results.find((r) => r.checkId === checkId && r.operationId === operationId);
  if (!result) throw new Error(`no result for ${checkId} on ${operationId}`);
  return result;
}

/** `operation | issue` of every finding of `checkId`, sorted. */
export function findingsOf(outcome: ScanOutcome, checkId: string): string[] {
  return outcome.results
    .filter((r) => r.checkId === checkId)
    .flatMap((r) => r.findings.map((f) => `${r.operationId} | ${f.issueId}`))
    .sort();
}
