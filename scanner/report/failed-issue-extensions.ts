/**
 * What a failed issue carries for CI (issue #28): its `fingerprint`, the `suppressed` note when a suppression in force
 * names it, and `evidence.curl`, a command that sends the proving request again (the attempt the check cited first,
 * else the first one answered). build-report.ts adds them to every failed issue of the report.
 */
import type { CheckResult, SuppressionNote } from '../scan-result.js';
import { curlCommand } from './curl-command.js';
import { resultFingerprint } from './issue-fingerprint.js';

export interface FailedIssueExtensions {
  fingerprint: string;
  suppressed?: SuppressionNote;
  curl?: string;
}

export function failedIssueExtensions(
  issueId: string,
  result: CheckResult,
  cited: readonly (string | undefined)[],
  suppressions: ReadonlyMap<string, SuppressionNote> | undefined,
): FailedIssueExtensions {
  const fingerprint = resultFingerprint(result, issueId);
  const suppressed = suppressions?.get(fingerprint);
  const byId = new Map(result.attempts.map((a) => [a.id, a]));
  const proving =
    cited.map((id) => (id === undefined ? undefined : byId.get(id))).find((a) => a !== undefined) ??
    result.attempts.find((a) => a.response !== undefined);
  return {
    fingerprint,
    ...(suppressed ? { suppressed: { ...suppressed } } : {}),
    ...(proving ? { curl: curlCommand(proving.request) } : {}),
  };
}
