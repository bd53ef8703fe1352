/**
 * The credentials a scan holds — the operation's own, and the values of options declared `secret` (the second
 * identity of `--as-other`, the claim checks' tokens, any custom check's) — and their redaction: none of them is ever
 * written to a report, in full or as the bare token after its `Bearer ` prefix.
 */
import type { Operation } from './api.js';

const REDACTED = '[redacted]';
/** Short values would redact innocent text; real credentials are longer. */
const MIN_LENGTH = 4;

/** `optionSecrets`: the secret option values of the scan (`secretValues` of check-options.ts). */
export function secretsOf(operation: Operation, optionSecrets: readonly string[]): string[] {
  const secrets = new Set<string>();
  const { credential, readBackCredential } = operation;
  // A body credential's endpoint credential (`with`) is the scan's too.
  for (const value of [credential?.value, credential?.with?.value, readBackCredential?.value, ...optionSecrets]) {
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
