/**
 * One root cause, one finding (docs/architecture.md §2.6): a finding that names a cause (e.g. a token re-signed with the secret
 * jwt.weak_secret recovered) is linked to it when that cause was found on the same operation, and then not scored
 * again. When the cause was not found (its check not selected, or skipped), the finding keeps its own score: nothing
 * else in the report would say the key is known.
 */
import type { IssueMeta } from './api.js';
import type { CheckResult, Finding } from './scan-result.js';

/** Marks `linked` on every finding whose cause is a finding on the same operation. Mutates the results. */
export function linkRootCauses(results: CheckResult[]): void {
  const found = new Set<string>();
  const key = (operationId: string, checkId: string, issueId: string): string =>
    `${operationId}\u0000${checkId}\u0000${issueId}`;
  for (const result of results) {
    if (result.status !== 'failed') continue;
    for (const finding of result.findings)
      if (!finding.cause) found.add(key(result.operationId, result.checkId, finding.issueId));
  }
  for (const result of results) {
    for (const finding of result.findings) {
      if (finding.cause && found.has(key(result.operationId, finding.cause.checkId, finding.cause.issueId)))
        finding.linked = true;
    }
  }
}

/** The score a finding counts with: 0 when it is linked to its root cause, else its issue's CVSS score. */
export function findingScore(finding: Finding, issue: IssueMeta): number {
  // A finding's own score (Finding.cvss: what the operation is, or a public operation) wins over its issue's.
  return finding.linked ? 0 : (finding.cvss?.score ?? issue.cvss.score);
}
