/**
 * A failed issue's fingerprint: a stable hash of what it is about — the check, the issue, the operation id and the
 * inputs that carried the proof (an injected parameter; none for most checks) — so a suppression or a CI dashboard
 * can name it across scans. Not of anything a run changes (times, ids of attempts, answers, scores).
 */
import { createHash } from 'node:crypto';

interface FingerprintSubject {
  checkId: string;
  issueId: string;
  operationId: string;
  /** The inputs named by the findings (`query.q`, `body.name`…), in any order; empty when none names one. */
  inputs?: readonly string[];
}

/** 32 hex characters (128 bits of SHA-256). */
function issueFingerprint(subject: FingerprintSubject): string {
  const inputs = [...new Set(subject.inputs ?? [])].sort();
  const text = JSON.stringify([subject.checkId, subject.issueId, subject.operationId, inputs]);
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/** The fingerprint of `issueId` as `result` found it (its check and operation, the inputs its findings name). */
export function resultFingerprint(
  result: { checkId: string; operationId: string; findings: readonly { issueId: string; input?: string }[] },
  issueId: string,
): string {
  const inputs = result.findings.filter((f) => f.issueId === issueId && f.input !== undefined).map((f) => f.input!);
  return issueFingerprint({ checkId: result.checkId, issueId, operationId: result.operationId, inputs });
}
