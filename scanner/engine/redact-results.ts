/**
 * Redacts values from every result of a scan, in place, once the scan ended: the attempts (requests and answers,
 * whichever check recorded them), findings' details and step roles, reasons and published facts. Values checks
 * discovered (`ctx.redact`) are known only from the moment of discovery, while answers recorded earlier may hold them
 * too (a user list the API over-shares), so they are removed from the whole scan at its end.
 */
import type { CheckResult } from '../scan-result.js';
import { redactSecrets } from '../secrets.js';
import { redactAttempt } from './redact-attempt.js';

function redactData(data: Record<string, unknown>, secrets: readonly string[]): Record<string, unknown> {
  // The facts are JSON values: a value inside a string is JSON-escaped there, and forms() holds that form too.
  return JSON.parse(redactSecrets(JSON.stringify(data), secrets)) as Record<string, unknown>;
}

export function redactResults(results: readonly CheckResult[], secrets: readonly string[]): void {
  if (secrets.length === 0) return;
  const redact = (text: string): string => redactSecrets(text, secrets);
  // A passive check's citation is the same attempt object as the sender's: each is redacted once.
  const attempts = new Set(results.flatMap((r) => r.attempts));
  for (const attempt of attempts) redactAttempt(attempt, secrets);
  for (const result of results) {
    if (result.reason !== undefined) result.reason = redact(result.reason);
    if (result.data) result.data = redactData(result.data, secrets);
    for (const finding of result.findings) {
      if (finding.detail !== undefined) finding.detail = redact(finding.detail);
      for (const step of finding.steps ?? []) step.role = redact(step.role);
    }
  }
}
