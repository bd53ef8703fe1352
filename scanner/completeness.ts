/**
 * Incomplete is not success (docs/architecture.md §2.6): which checks could not run for a reason that leaves the scan incomplete
 * (no, empty or rejected credential, identity canary lost, errors, everything filtered out), the reasons in
 * command-line terms, and the summary the advice line, the table, the JSON report and `--fail-on-incomplete` read.
 */
import type { Operation } from './api.js';
import type { DeclaredOption } from './check-options.js';
import type { CheckResult, ScanOutcome } from './scan-result.js';

/** The probe every credential check depends on: it and its dependents need a usable credential. */
export const CREDENTIAL_PROBE = 'auth.baseline';

/** Why an operation cannot be scanned with a credential it should have: an empty value, or none where one is declared. */
export function credentialGap(operation: Operation): string | undefined {
  const credential = operation.credential;
  if (credential && credential.value.trim() === '') {
    return `the ${credential.name} value is empty: give the credential (e.g. -H '${credential.name}: Bearer <token>')`;
  }
  if (!credential && operation.securitySchemes.length > 0) {
    return `no credential for ${operation.securitySchemes.join(', ')}: give one (--security-schemes name=value, or -H 'Authorization: …')`;
  }
  return undefined;
}

/** Option keys in a reason (`expiredToken`, `jwtPublicKeyFile`) become the flags a user types (`--jwt-expired-token`). */
export function inFlagTerms(reason: string, declared: readonly DeclaredOption[]): string {
  let out = reason;
  for (const { declaration } of declared) {
    // A one-word key (`identity`) is also an English word a reason uses: only camelCase keys are option names there.
    if (!/[A-Z]/.test(declaration.name)) continue;
    out = out.replace(new RegExp(`(?<![\\w-])${declaration.name}(?![\\w-])`, 'g'), declaration.flag);
  }
  return out;
}

export interface Incompleteness {
  complete: boolean;
  /** Checks (per operation) that could not run for a reason that makes the scan incomplete. */
  count: number;
  /** Distinct reasons, most frequent first. */
  reasons: string[];
  items: { checkId: string; operationId: string; status: CheckResult['status']; reason: string }[];
}

/** The reason without the dependency prefix, so "dependency auth.baseline skipped: X" and "X" count as one. */
function rootReason(reason: string): string {
  let out = reason;
  for (;;) {
    const next = /^dependency \S+ (?:skipped|errored): (.*)$/s.exec(out)?.[1];
    if (next === undefined) return out;
    out = next;
  }
}

export function incompleteness(outcome: Pick<ScanOutcome, 'results' | 'canary'>): Incompleteness {
  const items = outcome.results
    .filter((r) => r.incomplete || r.status === 'errored')
    .map((r) => ({ checkId: r.checkId, operationId: r.operationId, status: r.status, reason: r.reason ?? r.status }));
  const counts = new Map<string, number>();
  for (const item of items) counts.set(rootReason(item.reason), (counts.get(rootReason(item.reason)) ?? 0) + 1);
  const reasons = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([reason]) => reason);
  // A credential lost only at the end: every check ran, but some of them may have judged a dead credential.
  if (outcome.canary?.lost && !reasons.includes(outcome.canary.lost.reason)) reasons.push(outcome.canary.lost.reason);
  const nothingRan = outcome.results.length > 0 && outcome.results.every((r) => r.status === 'skipped');
  if (nothingRan && reasons.length === 0) reasons.push('every check was skipped');
  return { complete: reasons.length === 0, count: items.length, reasons, items };
}

/** `Warning: the scan is incomplete …` with the count and the first reasons. */
export function incompleteAdvice(summary: Incompleteness): string {
  const first = summary.reasons.slice(0, 2).join('; ');
  const more =
    summary.reasons.length > 2
      ? ` (and ${summary.reasons.length - 2} more reason${summary.reasons.length - 2 === 1 ? '' : 's'})`
      : '';
  const count =
    summary.count > 0
      ? `${summary.count} check${summary.count === 1 ? '' : 's'} could not run`
      : 'its results may not hold';
  return `Warning: the scan is incomplete: ${count}: ${first}${more}.`;
}
