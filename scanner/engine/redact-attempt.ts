/** Redacts credentials from a recorded attempt, in place: the request and the answer (targets echo what they get). */
import { redactSecrets } from '../secrets.js';
import type { Attempt } from '../scan-result.js';

export function redactAttempt(attempt: Attempt, secrets: readonly string[]): void {
  const redact = (text: string): string => redactSecrets(text, secrets);
  attempt.request.url = redact(attempt.request.url);
  attempt.request.headers = Object.fromEntries(
    Object.entries(attempt.request.headers).map(([name, value]) => [name, redact(value)]),
  );
  if (attempt.request.body !== undefined) attempt.request.body = redact(attempt.request.body);
  if (attempt.response) {
    const { response } = attempt;
    response.headers = Object.fromEntries(
      Object.entries(response.headers).map(([name, value]) => [name, redact(value)]),
    );
    response.setCookies = response.setCookies.map(redact);
    response.body = redact(response.body);
  }
  if (attempt.error !== undefined) attempt.error = redact(attempt.error);
}
