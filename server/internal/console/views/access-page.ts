/**
 * API Access (DESIGN.md §1.2): which organizations a token subject may act on, and which one is its default.
 * Looked up by subject; granting, revoking and marking a default need `gatehouse:admin`.
 */
import type { Grant } from '../../../components/grants/grants.model.js';
import { escapeHtml } from './escape-html.js';
import { csrfField, formatTime, layout, type PageContext } from './layout.js';

function hidden(name: string, value: string): string {
  return `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
}

function grantRows(ctx: PageContext, subject: string, grants: readonly Grant[], canEdit: boolean): string {
  if (grants.length === 0)
    return `<tr><td colspan="4" class="muted">${escapeHtml(subject)} has no access to any organization.</td></tr>`;
  return grants
    .map((g) => {
      const fields = `${csrfField(ctx)}${hidden('organizationId', g.organizationId)}${hidden('subject', g.subject)}`;
      const buttons = canEdit
        ? `${g.isDefault ? '' : `<form class="inline" method="post" action="${escapeHtml(ctx.base)}/access/default">${fields}<button type="submit" class="secondary">Make default</button></form> `}
<form class="inline" method="post" action="${escapeHtml(ctx.base)}/access/revoke">${fields}<button type="submit" class="danger">Revoke</button></form>`
        : '';
      return `<tr><td><code>${escapeHtml(g.organizationId)}</code></td><td>${g.isDefault ? '<span class="badge active">default</span>' : ''}</td><td>${formatTime(g.createdAt)}</td><td>${buttons}</td></tr>`;
    })
    .join('\n');
}

export function accessPage(
  ctx: PageContext,
  subject: string | undefined,
  grants: readonly Grant[],
  canEdit: boolean,
): string {
  const lookup = `<form class="filters" method="get" action="${escapeHtml(ctx.base)}/access">
<div><label for="subject">Token subject</label><input type="text" id="subject" name="subject" value="${escapeHtml(subject ?? '')}" required></div>
<button type="submit" class="secondary">Show access</button></form>`;
  const list =
    subject === undefined
      ? '<p class="muted">Enter a token subject (`sub`) to see and manage its access.</p>'
      : `<h2>Access of <code>${escapeHtml(subject)}</code></h2>
<table><thead><tr><th>Organization</th><th>Default</th><th>Granted</th><th></th></tr></thead><tbody>${grantRows(ctx, subject, grants, canEdit)}</tbody></table>`;
  const grantForm = canEdit
    ? `<h2>Grant access</h2><form class="card" method="post" action="${escapeHtml(ctx.base)}/access/grant">${csrfField(ctx)}
<label for="grant-subject">Token subject</label><input type="text" id="grant-subject" name="subject" value="${escapeHtml(subject ?? '')}" required>
<label for="grant-organization">Organization id</label><input type="text" id="grant-organization" name="organizationId" required>
<label><input type="checkbox" name="isDefault" value="true"> Make it the subject's default organization</label>
<button type="submit">Grant access</button></form>`
    : '<p class="notice">Changing API access needs the <code>gatehouse:admin</code> scope.</p>';
  return layout(ctx, 'API Access', 'access', `<h1>API Access</h1>${lookup}${list}${grantForm}`);
}
