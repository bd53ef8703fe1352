/** The error page for errors that cannot go back to the client (unknown client, bad redirect_uri): no stack, no internals. */
import { escapeHtml } from '../../lib/escape-html.js';
import { page } from './layout.js';

export function errorPage(error: string, description?: string): string {
  return page(
    'Something went wrong',
    `<p class="error"><code>${escapeHtml(error)}</code></p>${description ? `<p>${escapeHtml(description)}</p>` : ''}`,
  );
}
