/**
 * Table report format (docs/architecture.md §2.5): the advice line (and the incomplete-scan line, docs/architecture.md §2.6), then the tables drawn
 * with cli-table3 — well-known paths, technology fingerprint, vulnerability list, suppressed findings with their
 * reasons, skipped checks with their reasons —
 * and the checks that errored, if any.
 */
import Table from 'cli-table3';
import { incompleteAdvice, incompleteness, type Incompleteness } from '../completeness.js';
import { fingerprintFrom } from '../report/fingerprint.js';
import { countedRows, findingRows, type FindingRow } from '../report/findings.js';
import { isHighRisk } from '../report/risk.js';
import { wellKnownPaths } from '../report/well-known.js';
import type { ScanOutcome } from '../scan-result.js';

const ADVICE = {
  success: 'Success: No issue detected!',
  error: "Error: There are some high-risk issues. It's advised to take immediate action.",
  warning: "Warning: There are some issues. It's advised to take action.",
} as const;

/** The advice: an incomplete scan is never a success, and says so even when it found something. */
export function adviceLine(rows: FindingRow[], completeness?: Incompleteness): string {
  const incomplete = completeness && !completeness.complete ? incompleteAdvice(completeness) : undefined;
  if (rows.length === 0) return incomplete ?? ADVICE.success;
  const found = rows.some((r) => isHighRisk(r.score)) ? ADVICE.error : ADVICE.warning;
  return incomplete ? `${found}\n${incomplete}` : found;
}

/** Borders all round and a line under the header, none between rows. */
const NO_ROW_LINES = { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' };

function draw(head: string[], rows: string[][]): string {
  const table = new Table({ head, style: { head: [], border: [] }, chars: NO_ROW_LINES });
  table.push(...rows);
  return table.toString();
}

export function vulnerabilityTable(rows: FindingRow[]): string {
  return draw(
    ['OPERATION', 'RISK LEVEL', 'CVSS 4.0 SCORE', 'OWASP', 'VULNERABILITY'],
    rows.map((r) => [r.operation, r.risk, r.score.toFixed(1), r.owasp, r.name]),
  );
}

/** Skipped checks, one row per check and reason (operations counted), so a large scan stays readable. */
function skippedTable(outcome: ScanOutcome): string | undefined {
  const groups = new Map<string, { checkId: string; reason: string; operations: string[] }>();
  for (const result of outcome.results) {
    if (result.status !== 'skipped') continue;
    const reason = result.reason ?? 'skipped';
    const key = `${result.checkId}\u0000${reason}`;
    const group = groups.get(key) ?? { checkId: result.checkId, reason, operations: [] };
    group.operations.push(result.operationId);
    groups.set(key, group);
  }
  if (groups.size === 0) return undefined;
  const rows = [...groups.values()]
    .sort((a, b) => a.checkId.localeCompare(b.checkId))
    .map((g) => [
      g.checkId,
      g.operations.length === 1 ? g.operations[0] : `${g.operations.length} operations`,
      g.reason,
    ]);
  return draw(['SKIPPED CHECK', 'OPERATION', 'REASON'], rows);
}

/** Findings a suppression accepts: listed with its reason and expiry, apart from the ones that count. */
function suppressedTable(rows: readonly FindingRow[]): string {
  return draw(
    ['SUPPRESSED', 'CVSS 4.0 SCORE', 'VULNERABILITY', 'REASON', 'UNTIL'],
    rows.map((r) => [
      r.operation,
      r.score.toFixed(1),
      r.name,
      r.suppressed!.reason,
      r.suppressed!.expires?.slice(0, 10) ?? '-',
    ]),
  );
}

export function formatTable(outcome: ScanOutcome, options: { advice?: boolean } = {}): string {
  const all = findingRows(outcome);
  const rows = countedRows(all);
  const suppressed = all.filter((r) => r.suppressed);
  const parts: string[] = [];
  if (options.advice ?? true) parts.push(adviceLine(rows, incompleteness(outcome)));
  const wellKnown = wellKnownPaths(outcome.results);
  if (wellKnown) {
    parts.push(
      draw(
        ['WELL-KNOWN PATHS', 'URL'],
        [
          ['OpenAPI', wellKnown.openapi ?? 'N/A'],
          ['GraphQL', wellKnown.graphql ?? 'N/A'],
        ],
      ),
    );
  }
  const fingerprint = fingerprintFrom(outcome.results.flatMap((r) => r.attempts));
  const fingerprintRows = [
    ...fingerprint.framework.map((v) => ['Framework', v]),
    ...fingerprint.language.map((v) => ['Language', v]),
    ...fingerprint.server.map((v) => ['Server', v]),
  ];
  if (fingerprintRows.length > 0) parts.push(draw(['TECHNOLOGIE/SERVICE', 'VALUE'], fingerprintRows));
  if (rows.length > 0) parts.push(vulnerabilityTable(rows));
  if (suppressed.length > 0) parts.push(suppressedTable(suppressed));
  const skipped = skippedTable(outcome);
  if (skipped) parts.push(skipped);
  const errored = outcome.results.filter((r) => r.status === 'errored');
  if (errored.length > 0) {
    parts.push(
      [
        'Errored checks (neither safe nor vulnerable):',
        ...errored.map((r) => `  - ${r.checkId} on ${r.operationId}: ${r.reason ?? 'error'}`),
      ].join('\n'),
    );
  }
  const left = outcome.model?.created.filter((o) => o.state === 'left') ?? [];
  if (left.length > 0) {
    parts.push(
      draw(
        ['LEFT BEHIND', 'CREATED BY', 'KEYS', 'WHY'],
        left.map((o) => [
          o.resource,
          `${o.operation} as ${o.creator}${o.check ? ` (${o.check})` : ''}`,
          Object.entries(o.keys)
            .map(([k, v]) => `${k}=${v}`)
            .join(', '),
          o.reason ?? '',
        ]),
      ),
    );
  }
  const serverErrors = outcome.model?.serverErrors ?? [];
  if (serverErrors.length > 0) {
    parts.push(
      draw(
        ['SERVER ERRORS', 'REQUESTS', 'INPUTS THAT CAUSED THEM'],
        serverErrors.map((g) => [
          g.operation,
          String(g.count),
          [...new Set(g.requests.flatMap((r) => r.inputs.map((i) => i.input)))].slice(0, 6).join(', '),
        ]),
      ),
    );
  }
  return `${parts.join('\n\n')}\n`;
}
