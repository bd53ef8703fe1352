/**
 * A registration as a reviewer sees it: facts, live config, the pending change set as a diff, the decision forms
 * the status allows (each with a required reason), and its audit history. Separation of duties is shown, not just
 * enforced: on their own submission a reviewer sees why they cannot decide, and no forms.
 */
import type { ChangeSet } from '../../../components/change-sets/change-sets.model.js';
import type { Registration } from '../../../components/registrations/registrations.model.js';
import { reviewTable, type ReviewAction } from '../../../components/registrations/state-machine.js';
import type { DiffLine } from '../config-diff.js';
import type { AuditEntry } from '../../../components/audit/audit.model.js';
import type { Comment } from '../../../components/comments/comments.model.js';
import { commentsSection } from './comments-section.js';
import type { ProvisioningState } from '../../../components/provisioning/provisioning-state.js';
import { provisioningSection } from './provisioning-section.js';
import { ADMIN_DECISIONS } from '../../../components/registrations/review.service.js';
import { auditTable } from './audit-page.js';
import { escapeHtml } from '../../../../lib/escape-html.js';
import { csrfField, formatTime, layout, statusBadge, type PageContext } from './layout.js';
import { detailHref } from './queue-page.js';

const LABELS: Record<ReviewAction, string> = {
  approve: 'Approve',
  reject: 'Reject',
  request_changes: 'Request changes',
  suspend: 'Suspend',
  unsuspend: 'Unsuspend',
  deprecate: 'Deprecate',
};

function json(value: unknown): string {
  return `<pre>${escapeHtml(JSON.stringify(value, null, 2))}</pre>`;
}

function decisionForm(ctx: PageContext, action: string, label: string, actionUrl: string, hidden: string): string {
  const id = `reason-${action}`;
  const style = action === 'approve' ? '' : action === 'request_changes' ? ' class="secondary"' : ' class="danger"';
  return `<form method="post" action="${escapeHtml(actionUrl)}">${csrfField(ctx)}${hidden}
<input type="hidden" name="action" value="${escapeHtml(action)}">
<label for="${id}">${escapeHtml(label)}: reason</label>
<textarea id="${id}" name="reason" required maxlength="2000"></textarea>
<button type="submit"${style}>${escapeHtml(label)}</button></form>`;
}

function ownWork(what: string): string {
  return `<p class="notice" role="note"><strong>Separation of duties:</strong> you ${what}, so another reviewer must decide on it.</p>`;
}

function diffTable(lines: readonly DiffLine[]): string {
  const rows = lines
    .map((line) => {
      const cell =
        line.kind === 'unchanged'
          ? json(line.before)
          : `${line.before !== undefined ? `<del>${json(line.before)}</del>` : ''}${line.after !== undefined ? `<ins>${json(line.after)}</ins>` : ''}`;
      return `<tr class="${line.kind}"><td class="key">${escapeHtml(line.key)}</td><td>${escapeHtml(line.kind)}</td><td>${cell}</td></tr>`;
    })
    .join('\n');
  return `<table class="diff"><thead><tr><th>Config key</th><th>Change</th><th>Live → proposed</th></tr></thead><tbody>${rows}</tbody></table>`;
}

interface RegistrationPageData {
  registration: Registration;
  changeSet: ChangeSet | null;
  diff: DiffLine[];
  history: AuditEntry[];
  comments: Comment[];
  provisioning: ProvisioningState;
}

export function registrationPage(ctx: PageContext, data: RegistrationPageData): string {
  const r = data.registration;
  const url = detailHref(ctx.base, r.organizationId, r.id);
  const me = ctx.user?.sub;
  const submitter = r.submittedBy ?? r.createdBy;
  const isAdmin = ctx.user?.roles.includes('admin') ?? false;
  // Suspend, unsuspend and deprecate are admin operations; reviewers decide on submissions.
  const actions = reviewTable
    .filter((row) => row.from.includes(r.status))
    .map((row) => row.action)
    .filter((a) => isAdmin || !(ADMIN_DECISIONS as readonly string[]).includes(a));
  let decisions = '';
  if (actions.length) {
    // The service refuses approval of one's own submission; the console does not offer any decision on it.
    const own = r.status === 'pending_review' && submitter === me;
    const hidden = `<input type="hidden" name="revision" value="${r.revision}">`;
    decisions = `<h2>${r.status === 'pending_review' ? 'Decision' : 'Administration'}</h2>${
      own
        ? ownWork('submitted this registration')
        : `<div class="decisions">${actions.map((a) => decisionForm(ctx, a, LABELS[a], `${url}/decisions`, hidden)).join('')}</div>`
    }`;
  }
  let changeSet = '';
  if (data.changeSet) {
    const cs = data.changeSet;
    const own = cs.createdBy === me;
    const stale = cs.baseRevision !== r.revision;
    changeSet = `<h2>Pending change set <code>${escapeHtml(cs.id)}</code></h2>
<p class="muted">Proposed by ${escapeHtml(cs.createdBy)} on ${formatTime(cs.createdAt)} against revision ${cs.baseRevision}.</p>
${stale ? '<p class="error">The registration changed after this proposal (stale base revision): it can only be rejected.</p>' : ''}
${diffTable(data.diff)}
${
  own
    ? ownWork('proposed this change set')
    : `<div class="decisions">${(stale ? (['reject'] as const) : (['approve', 'reject'] as const))
        .map((a) =>
          decisionForm(
            ctx,
            a,
            `${a === 'approve' ? 'Approve' : 'Reject'} change set`,
            `${url}/change-sets/${encodeURIComponent(cs.id)}/decisions`,
            '',
          ),
        )
        .join('')}</div>`
}`;
  }
  return layout(
    ctx,
    r.name,
    'queue',
    `<h1>${escapeHtml(r.name)} ${statusBadge(r.status)}</h1>
<div class="card"><dl class="facts">
<dt>Id</dt><dd><code>${escapeHtml(r.id)}</code></dd>
<dt>Organization</dt><dd><code>${escapeHtml(r.organizationId)}</code></dd>
<dt>Client</dt><dd>${escapeHtml(r.clientType)} · ${escapeHtml(r.applicationType)} · policy <code>${escapeHtml(r.policyProfileId)}</code></dd>
${r.clientId ? `<dt>Client id</dt><dd><code>${escapeHtml(r.clientId)}</code></dd>` : ''}
<dt>Created by</dt><dd>${escapeHtml(r.createdBy)} on ${formatTime(r.createdAt)}</dd>
${r.submittedAt ? `<dt>Submitted by</dt><dd>${escapeHtml(submitter)} on ${formatTime(r.submittedAt)}</dd>` : ''}
<dt>Revision</dt><dd>${r.revision}</dd>
${r.description ? `<dt>Description</dt><dd>${escapeHtml(r.description)}</dd>` : ''}
</dl></div>
${provisioningSection(data.provisioning)}
${changeSet}
${decisions}
<h2>Live config</h2><div class="card">${json(r.config)}</div>
${commentsSection(ctx, data.comments, `${url}/comments`)}
<h2>History</h2>${auditTable(ctx, data.history)}`,
  );
}
