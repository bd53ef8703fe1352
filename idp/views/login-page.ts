/** The login page: pick one of the configured users, or type a sub, email or username. */
import type { IdpUser } from '../accounts.js';
import { escapeHtml } from '../../lib/escape-html.js';
import { page } from './layout.js';

export function loginPage(options: {
  action: string;
  users: readonly IdpUser[];
  clientName: string;
  loginHint?: string;
  error?: string;
}): string {
  const buttons = options.users
    .map((u) => {
      const label = [u.name, u.email].filter((v) => typeof v === 'string').join(' · ') || u.sub;
      return `<button type="submit" name="login" value="${escapeHtml(u.sub)}">${escapeHtml(label)}</button>`;
    })
    .join('\n');
  return page(
    'Sign in',
    `<p>Sign in to <strong>${escapeHtml(options.clientName)}</strong> as one of the configured users.</p>
${options.error ? `<p class="error">${escapeHtml(options.error)}</p>` : ''}
<form method="post" action="${escapeHtml(options.action)}">
${buttons}
</form>
<form method="post" action="${escapeHtml(options.action)}">
<label for="login">Or type a user (sub, email or username)</label>
<input id="login" name="login" autocomplete="username" value="${escapeHtml(options.loginHint ?? '')}">
<button type="submit">Sign in</button>
</form>
<form method="post" action="${escapeHtml(options.action.replace(/\/login$/, '/abort'))}"><button class="secondary" type="submit">Cancel</button></form>`,
  );
}
