/**
 * Suppressions (issue #28 item 5): `{ fingerprint, reason, expires? }` entries, from the config file's `suppressions:`
 * or `--suppressions FILE`, accept a failed issue: it stays failed, is listed as suppressed in every format and stops
 * counting for the threshold and the exit code. An expired one is a warning and suppresses nothing.
 */
import type { SuppressionNote } from '../scan-result.js';

export interface Suppression {
  /** The failed issue's `fingerprint` (report/issue-fingerprint.ts), as the JSON report shows it. */
  fingerprint: string;
  /** Why it is accepted: shown wherever the finding is listed. */
  reason: string;
  /** A date (`2026-06-30`: through the end of that day, UTC) or a date-time; none: for good. */
  expires?: string;
}

export interface ActiveSuppressions {
  /** Fingerprint → reason and expiry (a date-time), for the suppressions still in force. */
  byFingerprint: ReadonlyMap<string, SuppressionNote>;
  /** One line per expired suppression. */
  warnings: string[];
}

/** When a suppression stops: a date means through the end of that day (UTC), a date-time that instant. */
export function expiryOf(expires: string): Date {
  return /^\d{4}-\d{2}-\d{2}$/.test(expires) ? new Date(`${expires}T23:59:59.999Z`) : new Date(expires);
}

/** The suppressions in force at `now`, and a warning for each one that expired. */
export function activeSuppressions(list: readonly Suppression[], now: Date = new Date()): ActiveSuppressions {
  const byFingerprint = new Map<string, SuppressionNote>();
  const warnings: string[] = [];
  for (const { fingerprint, reason, expires } of list) {
    const until = expires === undefined ? undefined : expiryOf(expires);
    if (until && until.getTime() < now.getTime()) {
      warnings.push(
        `the suppression of ${fingerprint} ("${reason}") expired on ${expires}: that finding counts again (renew or remove it)`,
      );
      continue;
    }
    byFingerprint.set(fingerprint, { reason, ...(until ? { expires: until.toISOString() } : {}) });
  }
  return { byFingerprint, warnings };
}
