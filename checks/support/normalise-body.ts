/**
 * A response body with what changes from one request to the next taken out (ids, UUIDs, times, tokens, long numbers)
 * and the submitted user names replaced, so two answers can be compared for what they say rather than what they echo.
 */

const VOLATILE: [RegExp, string][] = [
  [/eyJ[\w-]+\.[\w-]+\.[\w-]*/g, '<jwt>'],
  [/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>'],
  [/\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?/g, '<time>'],
  [/\b[0-9a-f]{16,}\b/gi, '<hex>'],
  [/\b[A-Za-z]{1,10}_[A-Za-z0-9]{8,}\b/g, '<id>'],
  [/\b\d{4,}\b/g, '<n>'],
];

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function normaliseBody(body: string, submitted: string[] = []): string {
  let text = body;
  for (const value of submitted.filter((v) => v.length >= 3).sort((a, b) => b.length - a.length)) {
    text = text.replace(new RegExp(escape(value), 'gi'), '<submitted>');
  }
  for (const [pattern, replacement] of VOLATILE) text = text.replace(pattern, replacement);
  return text.trim();
}
