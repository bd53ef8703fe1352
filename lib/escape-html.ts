/**
 * HTML escaping for element content and quoted attribute values (single or double): `& < > " '`. The console's and
 * the identity provider's server-rendered pages and the scanner's HTML report all go through it. A missing value
 * (null, undefined) is empty text.
 */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: unknown): string {
  // Pages pass strings, numbers and Dates, whose own toString is the text to show.
  // eslint-disable-next-line @typescript-eslint/no-base-to-string
  return String(value ?? '').replace(/[&<>"']/g, (c) => ENTITIES[c]);
}
