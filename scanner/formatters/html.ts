/**
 * The HTML report (issue #28 item 6): one self-contained file to attach to a build — the advice, the findings grouped
 * by severity, each with its evidence and a curl command that sends the proof again, the suppressed findings, and the
 * checks that did not run. Inline style, no script, and a Content-Security-Policy that lets the page fetch nothing.
 */
import { incompleteness } from '../completeness.js';
import { countedRows, findingRows } from '../report/findings.js';
import { failedIssues } from '../report/failed-issues.js';
import type { RiskLevel } from '../report/risk.js';
import type { ScanOutcome } from '../scan-result.js';
import { VERSION } from '../version.js';
import { escapeHtml as e } from '../../lib/escape-html.js';
import { findingHtml } from './html-finding.js';
import { HTML_STYLE } from './html-style.js';
import { adviceLine } from './table.js';

const SEVERITIES: readonly RiskLevel[] = ['Critical', 'High', 'Medium', 'Low', 'Info'];

function notRun(outcome: ScanOutcome): string {
  const rows = outcome.results
    .filter((r) => r.status === 'skipped' || r.status === 'errored')
    .map(
      (r) =>
        `<tr><td>${e(r.checkId)}</td><td>${e(r.operationId)}</td><td>${r.status}</td><td>${e(r.reason ?? '')}</td></tr>`,
    );
  if (rows.length === 0) return '';
  return `<h2>Checks that did not run (${rows.length})</h2>
<table><thead><tr><th>Check</th><th>Operation</th><th>Status</th><th>Reason</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>`;
}

export function formatHtml(outcome: ScanOutcome): string {
  const issues = failedIssues(outcome);
  const counted = issues.filter((i) => !i.suppressed);
  const suppressed = issues.filter((i) => i.suppressed);
  const advice = adviceLine(countedRows(findingRows(outcome)), incompleteness(outcome));
  const target = outcome.operations[0] ? new URL(outcome.operations[0].url).origin : '';
  const sections = SEVERITIES.map((severity) => {
    const found = counted.filter((i) => i.risk === severity);
    return found.length === 0
      ? ''
      : `<section id="${severity.toLowerCase()}"><h2>${severity} (${found.length})</h2>\n${found.map(findingHtml).join('\n')}</section>`;
  });
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Gatehouse scanner report — ${e(target)}</title>
<style>${HTML_STYLE}</style>
</head>
<body>
<h1>Gatehouse scanner report</h1>
<p class="meta">${e(outcome.kind)} scan of ${e(target)} · ${outcome.operations.length} operation${outcome.operations.length === 1 ? '' : 's'} · ${outcome.requestsSent} requests · ${e(outcome.startTime.toISOString())} to ${e(outcome.endTime.toISOString())} · scanner ${e(VERSION)}</p>
<p class="advice">${advice.split('\n').map(e).join('<br>')}</p>
<p class="counts">${SEVERITIES.map((s) => `<span><span class="badge ${s}">${s}</span>${counted.filter((i) => i.risk === s).length}</span>`).join('')}<span><span class="badge Suppressed">Suppressed</span>${suppressed.length}</span></p>
${sections.join('\n')}
${suppressed.length > 0 ? `<section id="suppressed"><h2>Suppressed (${suppressed.length})</h2>\n<p class="muted">Accepted by a suppression: listed, not counted for the threshold or the exit code.</p>\n${suppressed.map(findingHtml).join('\n')}</section>` : ''}
${notRun(outcome)}
</body>
</html>
`;
}
