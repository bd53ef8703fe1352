/** HTML escaping for the server-rendered pages: every value that came from a request or a config goes through it. */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: unknown): string {
  // Pages pass strings, numbers and Dates, whose own toString is the text to show.
  // eslint-disable-next-line @typescript-eslint/no-base-to-string
  return String(value ?? '').replace(/[&<>"']/g, (c) => ENTITIES[c]);
}
