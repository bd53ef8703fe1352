/** The result of one check on one operation of a GraphQL demo scan, failing loudly when it did not run there. */
import type { CheckResult, ScanOutcome } from '../../scanner/scan-result.js';

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
