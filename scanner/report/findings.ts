/**
 * The findings of a scan as rows: one per (operation, issue) found — one per (origin, issue) for issues declared
 * `perOrigin`, listing the operations — sorted by score descending, then operation. A finding's own score (Finding.cvss)
 * wins over its issue's; a per-origin row takes the highest of its operations'. A finding linked to its root cause
 * (scanner/root-causes.ts) scores 0 and names the cause. Each row carries the fingerprints of its failed issues and,
 * when suppressions in force name all of them, the suppression: such rows are listed but never counted.
 */
import { findingScore } from '../root-causes.js';
import type { ScanOutcome, SuppressionNote } from '../scan-result.js';
import { operationLabel } from './failed-issues.js';
import { resultFingerprint } from './issue-fingerprint.js';
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
  /** Per-origin rows: the operations that showed the issue. */
  operations?: string[];
  /** The fingerprints of the failed issues behind the row (one per operation; report/issue-fingerprint.ts). */
  fingerprints: string[];
  /** Set when a suppression in force names every one of them: listed, but not counted for the threshold. */
  suppressed?: SuppressionNote;
}

export function findingRows(outcome: ScanOutcome): FindingRow[] {
  const definitions = new Map(outcome.checks.map((c) => [c.definition.id, c.definition]));
  const operations = new Map(outcome.operations.map((o) => [o.id, o]));
  const rows: FindingRow[] = [];
  const seen = new Set<string>();
  const grouped = new Map<string, FindingRow>();
  for (const result of outcome.results) {
    if (result.status !== 'failed') continue;
    const definition = definitions.get(result.checkId)!;
    const op = operations.get(result.operationId);
    // As every format shows it: a GraphQL field by its id (`POST /graphql query.orders`), the once-per-scan operation too.
    const operation = operationLabel(outcome, result);
    for (const finding of result.findings) {
      const issue = definition.issues.find((i) => i.id === finding.issueId)!;
      const score = findingScore(finding, issue);
      const fingerprint = resultFingerprint(result, issue.id);
      if (issue.perOrigin) {
        const origin = op ? new URL(op.url).origin : result.operationId;
        const key = `${origin}\u0000${issue.id}`;
        const row = grouped.get(key);
        if (row) {
          if (!row.operations!.includes(operation)) row.operations!.push(operation);
          if (!row.fingerprints.includes(fingerprint)) row.fingerprints.push(fingerprint);
          if (score > row.score) Object.assign(row, { score, risk: riskLevel(score) });
          continue;
        }
        const created: FindingRow = {
          operation: origin,
          checkId: result.checkId,
          issueId: issue.id,
          name: issue.name,
          score,
          risk: riskLevel(score),
          owasp: issue.classifications?.owasp ?? '',
          operations: [operation],
          fingerprints: [fingerprint],
        };
        grouped.set(key, created);
        rows.push(created);
        continue;
      }
      const key = `${operation}\u0000${finding.issueId}`;
      if (seen.has(key)) continue;
      seen.add(key);
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
        fingerprints: [fingerprint],
      });
    }
  }
  for (const row of rows) {
    const notes = row.fingerprints.map((f) => outcome.suppressions?.get(f));
    if (notes.every((note) => note !== undefined)) row.suppressed = notes[0];
  }
  for (const row of grouped.values()) {
    const count = row.operations!.length;
    row.operation = count === 1 ? row.operations![0] : `${row.operation} (${count} operations)`;
  }
  return rows.sort(
    (a, b) =>
      b.score - a.score ||
      (a.operation < b.operation ? -1 : a.operation > b.operation ? 1 : 0) ||
      (a.issueId < b.issueId ? -1 : 1),
  );
}

/** The rows that count for the advice, the threshold and the exit code: all but the suppressed ones. */
export function countedRows(rows: readonly FindingRow[]): FindingRow[] {
  return rows.filter((row) => !row.suppressed);
}
