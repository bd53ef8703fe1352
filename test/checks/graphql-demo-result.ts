/** The findings of one check in a GraphQL demo scan, as `operation | issue` lines. */
import type { ScanOutcome } from '../../scanner/scan-result.js';

/** `operation | issue` of every finding of `checkId`, sorted. */
export function findingsOf(outcome: ScanOutcome, checkId: string): string[] {
  return outcome.results
    .filter((r) => r.checkId === checkId)
    .flatMap((r) => r.findings.map((f) => `${r.operationId} | ${f.issueId}`))
    .sort();
}
