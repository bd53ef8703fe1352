/**
 * API Access (docs/architecture.md §1.2): which organizations a token subject may act on, in which role, and which one is its
 * default. Looked up by subject; granting, changing a role, revoking and marking a default need `gatehouse:admin`.
 */
import { GRANT_ROLES, type Grant, type GrantRole } from '../../../components/grants/grants.model.js';
import { escapeHtml } from '../../../../lib/escape-html.js';
import { csrfField, formatTime, layout, type PageContext } from './layout.js';

function hidden(name: string, value: string): string {
  return `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
}

/** What each role may do, as the page explains it. */
const ROLE_HELP: Record<GrantRole, string> = {
  viewer: 'reads registrations, change sets and webhooks',
  developer: 'creates registrations and edits, submits, withdraws, deletes and proposes changes on its own',
  owner: "everything: others' registrations, client secrets and webhooks included",
};

function roleSelect(id: string, selected: GrantRole, label?: string): string {
  const options = GRANT_ROLES.map(
    (role) => `<option value="${role}"${role === selected ? ' selected' : ''}>${role}</option>`,
  ).join('');
  return `<select id="${id}" name="role"${label ? ` aria-label="${escapeHtml(label)}"` : ''}>${options}</select>`;
}

function grantRows(ctx: PageContext, subject: string, grants: readonly Grant[], canEdit: boolean): string {
  if (grants.length === 0)
    return `<tr><td colspan="5" class="muted">${escapeHtml(subject)} has no access to any organization.</td></tr>`;
  return grants
    .map((g, i) => {
      const fields = `${csrfField(ctx)}${hidden('organizationId', g.organizationId)}${hidden('subject', g.subject)}`;
      const role = canEdit
        ? `<form class="inline" method="post" action="${escapeHtml(ctx.base)}/access/role">${fields}${roleSelect(`role-${i}`, g.role, `Role in ${g.organizationId}`)} <button type="submit" class="secondary">Change role</button></form>`
        : `<span title="${escapeHtml(ROLE_HELP[g.role])}">${g.role}</span>`;
      const buttons = canEdit
        ? `${g.isDefault ? '' : `<form class="inline" method="post" action="${escapeHtml(ctx.base)}/access/default">${fields}<button type="submit" class="secondary">Make default</button></form> `}
<form class="inline" method="post" action="${escapeHtml(ctx.base)}/access/revoke">${fields}<button type="submit" class="danger">Revoke</button></form>`
        : '';
      return `<tr><td><code>${escapeHtml(g.organizationId)}</code></td><td>${role}</td><td>${g.isDefault ? '<span class="badge active">default</span>' : ''}</td><td>${formatTime(g.createdAt)}</td><td>${buttons}</td></tr>`;
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
<table><thead><tr><th>Organization</th><th>Role</th><th>Default</th><th>Granted</th><th></th></tr></thead><tbody>${grantRows(ctx, subject, grants, canEdit)}</tbody></table>`;
  const grantForm = canEdit
    ? `<h2>Grant access</h2><form class="card" method="post" action="${escapeHtml(ctx.base)}/access/grant">${csrfField(ctx)}
<label for="grant-subject">Token subject</label><input type="text" id="grant-subject" name="subject" value="${escapeHtml(subject ?? '')}" required>
<label for="grant-organization">Organization id</label><input type="text" id="grant-organization" name="organizationId" required>
<label for="grant-role">Role</label>${roleSelect('grant-role', 'developer')}
<ul class="muted">${GRANT_ROLES.map((role) => `<li><strong>${role}</strong>: ${ROLE_HELP[role]}</li>`).join('')}</ul>
<label><input type="checkbox" name="isDefault" value="true"> Make it the subject's default organization</label>
<button type="submit">Grant access</button></form>`
    : '<p class="notice">Changing API access needs the <code>gatehouse:admin</code> scope.</p>';
  return layout(ctx, 'API Access', 'access', `<h1>API Access</h1>${lookup}${list}${grantForm}`);
}
