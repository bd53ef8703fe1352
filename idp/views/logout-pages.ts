/** Logout confirmation (wrapping oidc-provider's own form) and the signed-out page. */
import { escapeHtml } from '../../lib/escape-html.js';
import { page } from './layout.js';

/** `form` is oidc-provider's hidden form (id `op.logoutForm`, with its xsrf field); the buttons submit it. */
export function logoutConfirmPage(form: string, clientName?: string): string {
  return page(
    'Sign out?',
    `${form}
<p>${clientName ? `<strong>${escapeHtml(clientName)}</strong> asks you to sign out.` : 'Do you want to sign out?'}</p>
<button type="submit" form="op.logoutForm" name="logout" value="yes">Sign out everywhere</button>
<button class="secondary" type="submit" form="op.logoutForm">Only this application</button>`,
  );
}

export function signedOutPage(clientName?: string): string {
  return page('Signed out', `<p>You are signed out${clientName ? ` of ${escapeHtml(clientName)}` : ''}.</p>`);
}
