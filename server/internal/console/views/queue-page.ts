/** The review queue: pending registrations and change sets, oldest first, with an organization filter. */
import type { QueueItem } from '../../../components/registrations/review-queue.js';
import { escapeHtml } from '../../../../lib/escape-html.js';
import { formatTime, layout, statusBadge, type PageContext } from './layout.js';

export function detailHref(base: string, organizationId: string, registrationId: string): string {
  return `${base}/organizations/${encodeURIComponent(organizationId)}/registrations/${encodeURIComponent(registrationId)}`;
}

function row(ctx: PageContext, item: QueueItem): string {
  const r = item.registration;
  const submitter = item.kind === 'registration' ? (r.submittedBy ?? r.createdBy) : item.changeSet.createdBy;
  const own = ctx.user?.sub === submitter;
  const what =
    item.kind === 'registration' ? 'Registration' : `Change set <code>${escapeHtml(item.changeSet.id)}</code>`;
  return `<tr>
<td><a href="${escapeHtml(detailHref(ctx.base, r.organizationId, r.id))}">${escapeHtml(r.name)}</a><br><code class="muted">${escapeHtml(r.id)}</code></td>
<td>${what}</td>
<td><code>${escapeHtml(r.organizationId)}</code></td>
<td class="nowrap">${escapeHtml(r.clientType)} · ${escapeHtml(r.applicationType)}</td>
<td>${escapeHtml(submitter)}${own ? ' <span class="badge" title="Separation of duties: another reviewer decides">you</span>' : ''}</td>
<td class="nowrap">${formatTime(item.waitingSince)}</td>
<td>${statusBadge(item.kind === 'registration' ? r.status : 'pending_review')}</td>
</tr>`;
}

export function queuePage(ctx: PageContext, items: readonly QueueItem[], organizationId?: string): string {
  const rows = items.length
    ? items.map((item) => row(ctx, item)).join('\n')
    : '<tr><td colspan="7" class="muted">Nothing is waiting for review.</td></tr>';
  return layout(
    ctx,
    'Review queue',
    'queue',
    `<h1>Review queue <span class="muted">(${items.length} waiting, oldest first)</span></h1>
<form class="filters" method="get" action="${escapeHtml(ctx.base)}/">
<div><label for="organizationId">Organization</label><input type="text" id="organizationId" name="organizationId" value="${escapeHtml(organizationId ?? '')}" placeholder="all organizations"></div>
<button type="submit" class="secondary">Filter</button></form>
<table><thead><tr><th>Registration</th><th>Request</th><th>Organization</th><th>Client</th><th>Submitted by</th><th>Waiting since</th><th>Status</th></tr></thead>
<tbody>${rows}</tbody></table>`,
  );
}
