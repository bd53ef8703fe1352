/**
 * The credentials a scan holds — the operation's own, the second identity's (`--as-other`) and tokens given to
 * checks as options — and their redaction: none of them is ever written to a report, in full or as the bare
 * token after its `Bearer ` prefix.
 */
import type { Operation } from './api.js';

const REDACTED = '[redacted]';
/** Short values would redact innocent text; real credentials are longer. */
const MIN_LENGTH = 4;
const TOKEN_OPTIONS = ['expiredToken', 'otherIssuerToken', 'otherAudienceToken'];

export function secretsOf(operation: Operation, options: Readonly<Record<string, unknown>>): string[] {
  const values: unknown[] = [operation.credential?.value, (options.asOther as { value?: unknown } | undefined)?.value];
  for (const key of TOKEN_OPTIONS) values.push(options[key]);
  const secrets = new Set<string>();
  for (const value of values) {
    if (typeof value !== 'string') continue;
    secrets.add(value);
    const bare = /^\S+\s+(\S+)$/.exec(value)?.[1];
    if (bare) secrets.add(bare);
  }
  // Longest first, so a whole "Bearer x" is replaced before its bare token could leave "Bearer [redacted]" half-done.
  return [...secrets].filter((s) => s.length >= MIN_LENGTH).sort((a, b) => b.length - a.length);
}

export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join(REDACTED);
  return out;
}
