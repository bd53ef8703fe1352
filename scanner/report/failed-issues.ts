/**
 * Every failed issue of a scan with what a person needs to act on it: where (check, operation), how bad (the score it
 * counts with, its risk level), why (the findings' details), the attempts that prove it, its fingerprint, the curl
 * command that sends the proof again, and the suppression that accepts it, if any. The JUnit and HTML formats read this.
 */
import type { IssueMeta } from '../api.js';
import { findingScore } from '../root-causes.js';
import type { Attempt, CheckResult, ScanOutcome, SuppressionNote } from '../scan-result.js';
import { citedAttemptIds, failedIssueExtensions } from './failed-issue-extensions.js';
import { riskLevel, type RiskLevel } from './risk.js';

export interface FailedIssue {
  checkId: string;
  checkName: string;
  /** The operation as the table shows it (`GET /items/{id}`; a GraphQL field's own id). */
  operation: string;
  issue: IssueMeta;
  score: number;
  risk: RiskLevel;
  details: string[];
  /** The attempts the check cited as proof, in order (all it sent when it cited none). */
  evidence: Attempt[];
  fingerprint: string;
  curl?: string;
  suppressed?: SuppressionNote;
  /** The check this issue only follows from, when it is linked to its root cause (scored 0). */
  linkedTo?: string;
}

/** The operation of a result as the table shows it. */
export function operationLabel(outcome: ScanOutcome, result: CheckResult): string {
  const op = [...(outcome.oncePerScanOperation ? [outcome.oncePerScanOperation] : []), ...outcome.operations].find(
    (o) => o.id === result.operationId,
  );
  return op ? (op.graphql ? op.id : `${op.method} ${op.path}`) : result.operationId;
}

/** The failed issues of one result, in the order its check declares its issues. */
export function failedIssuesOf(outcome: ScanOutcome, result: CheckResult): FailedIssue[] {
  if (result.status !== 'failed') return [];
  const definition = outcome.checks.find((c) => c.definition.id === result.checkId)!.definition;
  const issues: FailedIssue[] = [];
  for (const issue of definition.issues) {
    const findings = result.findings.filter((f) => f.issueId === issue.id);
    if (findings.length === 0) continue;
    const cited = citedAttemptIds(findings);
    const ids = new Set(cited);
    const score = Math.max(...findings.map((f) => findingScore(f, issue)));
    const linkedTo = findings.every((f) => f.linked) ? findings[0].cause?.checkId : undefined;
    const { fingerprint, curl, suppressed } = failedIssueExtensions(issue.id, result, cited, outcome.suppressions);
    issues.push({
      checkId: result.checkId,
      checkName: definition.name,
      operation: operationLabel(outcome, result),
      issue,
      score,
      risk: riskLevel(score),
      details: findings.map((f) => f.detail).filter((d): d is string => d !== undefined),
      evidence: ids.size > 0 ? result.attempts.filter((a) => ids.has(a.id)) : result.attempts,
      fingerprint,
      ...(curl ? { curl } : {}),
      ...(suppressed ? { suppressed } : {}),
      ...(linkedTo ? { linkedTo } : {}),
    });
  }
  return issues;
}

/** Every failed issue of the scan, highest score first, then by operation. */
export function failedIssues(outcome: ScanOutcome): FailedIssue[] {
  return outcome.results
    .flatMap((result) => failedIssuesOf(outcome, result))
    .sort(
      (a, b) => b.score - a.score || a.operation.localeCompare(b.operation) || a.issue.id.localeCompare(b.issue.id),
    );
}
