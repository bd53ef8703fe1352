/**
 * What a failed issue carries for CI (issue #28): its `fingerprint`, the `suppressed` note when a suppression in force
 * names it, and `evidence.curl`, a command that sends the proving request again (the attempt the check cited first,
 * else the first one answered). build-report.ts adds them to every failed issue of the report; failed-issues.ts (the
 * HTML and JUnit formats) to its failed issues too. Both take the attempts a finding cites from `citedAttemptIds`.
 */
import type { CheckResult, Finding, SuppressionNote } from '../scan-result.js';
import { curlCommand } from './curl-command.js';
import { resultFingerprint } from './issue-fingerprint.js';

export interface FailedIssueExtensions {
  fingerprint: string;
  suppressed?: SuppressionNote;
  curl?: string;
}

/**
 * The attempts the findings cite as proof, in order: each finding's own attempt, its other attempts, its steps, its
 * oracle's exchanges (the read-back that proves a write) and its privilege chain's. May repeat an id.
 */
export function citedAttemptIds(findings: readonly Finding[]): string[] {
  return findings
    .flatMap((f) => [
      f.attemptId,
      ...(f.attemptIds ?? []),
      ...(f.steps ?? []).map((s) => s.attemptId),
      ...(f.oracle?.attemptIds ?? []),
      ...(f.chain ?? []).flatMap((s) => s.attemptIds ?? []),
    ])
    .filter((id): id is string => id !== undefined);
}

export function failedIssueExtensions(
  issueId: string,
  result: CheckResult,
  cited: readonly string[],
  suppressions: ReadonlyMap<string, SuppressionNote> | undefined,
): FailedIssueExtensions {
  const fingerprint = resultFingerprint(result, issueId);
  const suppressed = suppressions?.get(fingerprint);
  const byId = new Map(result.attempts.map((a) => [a.id, a]));
  const proving =
    cited.map((id) => byId.get(id)).find((a) => a !== undefined) ??
    result.attempts.find((a) => a.response !== undefined);
  return {
    fingerprint,
    ...(suppressed ? { suppressed: { ...suppressed } } : {}),
    ...(proving ? { curl: curlCommand(proving.request) } : {}),
  };
}
