/** The facts a check published, as JSON for the report's `data`, with every credential of the scan redacted. */
import { redactSecrets } from '../secrets.js';

export function publishedData(
  published: Map<string, unknown>,
  secrets: readonly string[],
): Record<string, unknown> | undefined {
  if (published.size === 0) return undefined;
  try {
    const text = redactSecrets(
      JSON.stringify(Object.fromEntries(published)),
      secrets.map((s) => JSON.stringify(s).slice(1, -1)),
    );
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}
