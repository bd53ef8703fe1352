/** What a scan produces: one result per (check, operation), with every request sent recorded as an attempt. */
import type { CheckDefinition, Operation } from './api.js';
import type { CanaryState } from './identity-canary.js';
import type { ModelOutcome } from './model/model-outcome.js';

export type ScanKind = 'curl' | 'openapi' | 'graphql' | 'discover';

/** A check as a scan runs it: its definition and the module it came from (scanner/loader.ts's `LoadedCheck`). */
export interface ScannedCheck {
  definition: CheckDefinition;
  /** The module's path, shown in errors about the check. */
  file: string;
  origin: 'built-in' | 'custom';
}

type CheckStatus = 'passed' | 'failed' | 'skipped' | 'errored';

/** One request a check sent and what came back (or the transport error). The scan's own credential is redacted. */
export interface Attempt {
  id: string;
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  response?: {
    status: number;
    headers: Record<string, string>;
    setCookies: string[];
    body: string;
    durationMs: number;
    /** Why the body was cut short on reading (`--max-body`, a compression bomb). */
    truncated?: string;
  };
  error?: string;
}

export interface Finding {
  issueId: string;
  detail?: string;
  /** The attempt that shows the issue, when the check gave one as evidence. */
  attemptId?: string;
  /**
   * This finding's score when it is lower than the issue's (docs/architecture.md §2.6 "scores say what the operation is": framing
   * headers on JSON, a rate limit off authentication, any authentication finding on a public operation).
   */
  cvss?: { version: 4.0; vector: string; score: number };
  /** The attempts of a proof that takes several, in order, with their role (write by another identity, read-back…). */
  steps?: { attemptId: string; role: string }[];
  /** The finding this one only follows from (a recovered signing key), as the check saw it. */
  cause?: FindingCause;
  /** Set after the scan when the cause was itself found on this operation: reported as linked, not scored again. */
  linked?: boolean;
  /** The other attempts of the proof (baseline, control…), when the check gave them. */
  attemptIds?: string[];
  /** The input that carried the proof (`FindingEvidence.input`), part of the issue's fingerprint. */
  input?: string;
  /** The oracle that proved a write, with the attempts of its exchanges. */
  oracle?: { kind: string; operation: string; attemptIds: string[] };
  /** The privilege chain the finding was reached through. */
  chain?: { step: number; role: 'raised' | 'reached'; operation: string; detail: string; attemptIds?: string[] }[];
}

/** The check and issue a finding follows from (docs/architecture.md §2.6 "one root cause, one finding"). */
interface FindingCause {
  checkId: string;
  issueId: string;
}

export interface CheckResult {
  checkId: string;
  operationId: string;
  status: CheckStatus;
  /** Why the check was skipped or errored. */
  reason?: string;
  /**
   * The check could not run for a reason that leaves the scan incomplete (no, empty or rejected credential, identity
   * canary lost, error), as opposed to a check that does not apply (docs/architecture.md §2.6 "incomplete is not success").
   */
  incomplete?: boolean;
  findings: Finding[];
  attempts: Attempt[];
  startTime: Date;
  endTime: Date;
  /**
   * A shared verdict (`CheckDefinition.sharedVerdict`): the operation whose own run proved this one's, which sent
   * nothing here; `reason` says what they share.
   */
  coveredBy?: string;
  /** Facts the check published (JSON values), shown as the report's `data`. */
  data?: Record<string, unknown>;
}

export interface ScanOutcome {
  kind: ScanKind;
  startTime: Date;
  endTime: Date;
  results: CheckResult[];
  requestsSent: number;
  /** Requests the send gate refused (destructive, never sent). */
  requestsRefused?: number;
  /** The identity canary's record, when an operation carried a credential to re-validate. */
  canary?: CanaryState;
  /** The API model's account: identities, objects created (and left behind), server errors (model-outcome.ts). */
  model?: ModelOutcome;
  operations: Operation[];
  /** Sharded scans: where once-per-scan checks ran when it is not among `operations`. */
  oncePerScanOperation?: Operation;
  checks: ScannedCheck[];
  /**
   * Failed issues the user accepted, by fingerprint (report/issue-fingerprint.ts): still failed, listed as suppressed,
   * not counted for the threshold or the exit code (set by report/deliver-report.ts from the active suppressions).
   */
  suppressions?: ReadonlyMap<string, SuppressionNote>;
}

/** Why a failed issue is accepted, and until when (ISO date-time; none: for good). */
export interface SuppressionNote {
  reason: string;
  expires?: string;
}
