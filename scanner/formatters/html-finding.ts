/** One failed issue in the HTML report: what, where, how bad, why, the curl command and the exchanges that prove it. */
import type { Attempt } from '../scan-result.js';
import type { FailedIssue } from '../report/failed-issues.js';
import { escapeHtml as e } from '../../lib/escape-html.js';

/** Bodies are cut here: the JSON report has them whole (as recorded). */
const BODY_LIMIT = 2000;

const cut = (body: string): string =>
  body.length > BODY_LIMIT
    ? `${body.slice(0, BODY_LIMIT)}\n… (${body.length - BODY_LIMIT} more characters in the JSON report)`
    : body;

function exchange(attempt: Attempt): string {
  const { request, response } = attempt;
  const head = [
    `${request.method} ${request.url}`,
    ...Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`),
  ].join('\n');
  const sent = request.body === undefined ? head : `${head}\n\n${cut(request.body)}`;
  const answer = response
    ? [
        `HTTP ${response.status} (${response.durationMs} ms)`,
        ...Object.entries(response.headers).map(([n, v]) => `${n}: ${v}`),
      ]
        .join('\n')
        .concat(response.body ? `\n\n${cut(response.body)}` : '')
    : `no answer: ${attempt.error ?? 'request failed'}`;
  return `<pre>${e(sent)}</pre><pre>${e(answer)}</pre>`;
}

export function findingHtml(failed: FailedIssue): string {
  const { issue } = failed;
  const label = failed.suppressed ? 'Suppressed' : failed.risk;
  const classes = [issue.classifications?.owasp, issue.classifications?.cwe].filter((c): c is string => Boolean(c));
  return `<article class="finding" id="f-${failed.fingerprint}">
<h3><span class="badge ${label}">${e(label)}</span>${e(issue.name)}</h3>
<dl>
<dt>Operation</dt><dd>${e(failed.operation)}</dd>
<dt>CVSS 4.0</dt><dd>${failed.score.toFixed(1)} (${e(failed.risk)})${issue.cvss.vector ? ` <span class="muted">${e(issue.cvss.vector)}</span>` : ''}${failed.linkedTo ? ` — follows from ${e(failed.linkedTo)}, not scored again` : ''}</dd>
<dt>Check</dt><dd>${e(failed.checkId)} (${e(failed.checkName)}), issue ${e(issue.id)}</dd>
${classes.length > 0 ? `<dt>Classification</dt><dd>${e(classes.join(' · '))}</dd>` : ''}
<dt>Fingerprint</dt><dd><code>${e(failed.fingerprint)}</code></dd>
${failed.suppressed ? `<dt>Suppressed</dt><dd>${e(failed.suppressed.reason)}${failed.suppressed.expires ? ` (until ${e(failed.suppressed.expires)})` : ''}</dd>` : ''}
</dl>
${failed.details.map((d) => `<p>${e(d)}</p>`).join('\n')}
${failed.curl ? `<p class="muted">Reproduce (set TOKEN to the credential first):</p><pre>${e(failed.curl)}</pre>` : ''}
${failed.evidence.length > 0 ? `<p class="muted">Evidence: ${failed.evidence.length} exchange${failed.evidence.length === 1 ? '' : 's'}</p>${failed.evidence.map(exchange).join('\n')}` : ''}
</article>`;
}
