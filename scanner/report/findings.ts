/**
 * The findings of a scan as rows: one per (operation, issue) found, sorted by score descending, then operation.
 * A finding linked to its root cause (scanner/root-causes.ts) scores 0 and names the cause.
 */
import { findingScore } from '../root-causes.js';
import type { ScanOutcome } from '../scan-result.js';
import { riskLevel, type RiskLevel } from './risk.js';

export interface FindingRow {
  operation: string;
  checkId: string;
  issueId: string;
  name: string;
  score: number;
  risk: RiskLevel;
  owasp: string;
  /** The check this finding only follows from, when it is linked (not scored again). */
  linkedTo?: string;
}

export function findingRows(outcome: ScanOutcome): FindingRow[] {
  const definitions = new Map(outcome.checks.map((c) => [c.definition.id, c.definition]));
  const operations = new Map(outcome.operations.map((o) => [o.id, o]));
  const rows: FindingRow[] = [];
  const seen = new Set<string>();
  for (const result of outcome.results) {
    if (result.status !== 'failed') continue;
    const definition = definitions.get(result.checkId)!;
    const op = operations.get(result.operationId);
    const operation = op ? `${op.method} ${op.path}` : result.operationId;
    for (const finding of result.findings) {
      const key = `${operation}\u0000${finding.issueId}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const issue = definition.issues.find((i) => i.id === finding.issueId)!;
      const score = findingScore(finding, issue);
      const linkedTo = finding.linked ? finding.cause?.checkId : undefined;
      rows.push({
        operation,
        checkId: result.checkId,
        issueId: issue.id,
        name: linkedTo ? `${issue.name} (follows from ${linkedTo}, not scored again)` : issue.name,
        score,
        risk: riskLevel(score),
        owasp: issue.classifications?.owasp ?? '',
        ...(linkedTo ? { linkedTo } : {}),
      });
    }
  }
  return rows.sort((a, b) => b.score - a.score || (a.operation < b.operation ? -1 : a.operation > b.operation ? 1 : 0) || (a.issueId < b.issueId ? -1 : 1));
}
