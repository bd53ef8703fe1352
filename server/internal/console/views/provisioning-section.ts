/** Where the registration's client stands at the authorization server: done, pending (retrying) or failed, per step. */
import type { ProvisioningState } from '../../../components/provisioning/provisioning-state.js';
import { escapeHtml } from '../../../../lib/escape-html.js';
import { formatTime } from './layout.js';

const BADGE: Record<string, string> = {
  done: 'active',
  pending: 'pending_review',
  in_progress: 'pending_review',
  failed: 'rejected',
};

function badge(status: string): string {
  return `<span class="badge ${BADGE[status] ?? ''}">${escapeHtml(status.replace(/_/g, ' '))}</span>`;
}

export function provisioningSection(state: ProvisioningState): string {
  if (state.status === 'none') return '';
  const rows = state.steps
    .map(
      (
        s,
      ) => `<tr><td><code>${escapeHtml(s.kind)}</code></td><td>${s.revision}</td><td>${badge(s.status)}</td><td>${s.attempts}</td>
<td>${s.status === 'done' ? '' : formatTime(s.nextAttemptAt)}</td><td>${escapeHtml(s.lastError ?? '')}</td></tr>`,
    )
    .join('\n');
  const client = state.clientId
    ? ` · client <code>${escapeHtml(state.clientId)}</code>${state.deleted ? ' (deleted)' : ''}`
    : '';
  const failed =
    state.status === 'failed'
      ? '<p class="error">A provisioning step failed for good: fix the cause at the authorization server, then retry it through the internal API (<code>POST …/provisioning/retry</code>).</p>'
      : '';
  return `<h2>Provisioning at the authorization server</h2>
<p>${badge(state.status)}${client}</p>${failed}
<table class="provisioning"><thead><tr><th>Step</th><th>Revision</th><th>Status</th><th>Attempts</th><th>Next attempt</th><th>Last error</th></tr></thead><tbody>${rows}</tbody></table>`;
}
