/** A page with a title and a message: errors, refusals, the signed-out page. */
import { escapeHtml } from '../../../../lib/escape-html.js';
import { layout, type PageContext } from './layout.js';

export function messagePage(
  ctx: PageContext,
  title: string,
  message: string,
  link?: { href: string; label: string },
): string {
  return layout(
    ctx,
    title,
    'none',
    `<h1>${escapeHtml(title)}</h1><p class="error" role="alert">${escapeHtml(message)}</p>${
      link ? `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>` : ''
    }`,
  );
}
