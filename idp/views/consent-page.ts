/** The consent page: the scopes the client asks for, Allow or Deny. */
import { escapeHtml } from '../../lib/escape-html.js';
import { page } from './layout.js';

export function consentPage(options: {
  action: string;
  abortAction: string;
  clientName: string;
  userLabel: string;
  scopes: string[];
}): string {
  const scopes = options.scopes.map((s) => `<li><code>${escapeHtml(s)}</code></li>`).join('');
  return page(
    'Allow access?',
    `<p><strong>${escapeHtml(options.clientName)}</strong> asks for access as <strong>${escapeHtml(options.userLabel)}</strong>.</p>
${scopes ? `<ul>${scopes}</ul>` : ''}
<form method="post" action="${escapeHtml(options.action)}"><button type="submit">Allow</button></form>
<form method="post" action="${escapeHtml(options.abortAction)}"><button class="secondary" type="submit">Deny</button></form>`,
  );
}
