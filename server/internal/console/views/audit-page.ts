/**
 * The audit history: every decision and admin change (actor, time, from → to, revision, reason), oldest first,
 * a page at a time (keyset on time and id, as the audit repository orders it).
 */
import type { AuditEntry } from '../../../components/audit/audit.model.js';
import { escapeHtml } from '../../../../lib/escape-html.js';
import { formatTime, layout, statusBadge, type PageContext } from './layout.js';
import { detailHref } from './queue-page.js';

export const AUDIT_PAGE_SIZE = 100;

/** `after` is `<epoch ms>.<entry id>`; anything else means the first page. */
export function parseAuditCursor(value: string | undefined): { at: Date; id: string } | undefined {
  const match = value === undefined ? null : /^(\d{1,15})\.([A-Za-z0-9_]{1,80})$/.exec(value);
  return match ? { at: new Date(Number(match[1])), id: match[2] } : undefined;
}

function target(ctx: PageContext, entry: AuditEntry): string {
  const registrationId = entry.targetType === 'registration' ? entry.targetId : entry.registrationId;
  if (registrationId !== undefined) {
    const link = `<a href="${escapeHtml(detailHref(ctx.base, entry.organizationId, registrationId))}"><code>${escapeHtml(registrationId)}</code></a>`;
    return entry.targetType === 'change_set'
      ? `${link}<br>change set <code>${escapeHtml(entry.targetId)}</code>`
      : link;
  }
  return `${escapeHtml(entry.targetType)} <code>${escapeHtml(entry.targetId)}</code>`;
}

function transition(entry: AuditEntry): string {
  if (entry.from === undefined && entry.to === undefined) return '';
  return `${entry.from !== undefined ? statusBadge(entry.from) : ''} → ${entry.to !== undefined ? statusBadge(entry.to) : ''}`;
}

export function auditTable(ctx: PageContext, entries: readonly AuditEntry[]): string {
  const rows = entries.length
    ? entries
        .map(
          (
            e,
          ) => `<tr><td>${formatTime(e.at)}</td><td>${escapeHtml(e.actor)}</td><td><code>${escapeHtml(e.action)}</code></td>
<td>${target(ctx, e)}<br><span class="muted">${escapeHtml(e.organizationId)}</span></td>
<td>${transition(e)}</td><td>${e.revision ?? ''}</td><td>${escapeHtml(e.reason ?? '')}</td></tr>`,
        )
        .join('\n')
    : '<tr><td colspan="7" class="muted">No entries yet.</td></tr>';
  return `<table class="audit"><thead><tr><th>Time</th><th>Actor</th><th>Action</th><th>Target</th><th>Transition</th><th>Revision</th><th>Reason</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

/** `entries` may hold one more than a page: that extra entry only says a next page exists. */
export function auditPage(ctx: PageContext, entries: readonly AuditEntry[], organizationId?: string): string {
  const shown = entries.slice(0, AUDIT_PAGE_SIZE);
  const last = shown[shown.length - 1];
  const next =
    entries.length > AUDIT_PAGE_SIZE && last
      ? `<p><a href="${escapeHtml(
          `${ctx.base}/audit?${new URLSearchParams({ ...(organizationId !== undefined && { organizationId }), after: `${last.at.getTime()}.${last.id}` }).toString()}`,
        )}">Newer entries →</a></p>`
      : '';
  return layout(
    ctx,
    'Audit history',
    'audit',
    `<h1>Audit history <span class="muted">(oldest first)</span></h1>
<form class="filters" method="get" action="${escapeHtml(ctx.base)}/audit">
<div><label for="organizationId">Organization</label><input type="text" id="organizationId" name="organizationId" value="${escapeHtml(organizationId ?? '')}" placeholder="all organizations"></div>
<button type="submit" class="secondary">Filter</button></form>
${auditTable(ctx, shown)}${next}`,
  );
}
