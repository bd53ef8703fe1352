/** What a scan produces: one result per (check, operation), with every request sent recorded as an attempt. */
import type { Operation } from './api.js';
import type { LoadedCheck } from './loader.js';

export type ScanKind = 'curl' | 'openapi' | 'graphql' | 'discover';

export type CheckStatus = 'passed' | 'failed' | 'skipped' | 'errored';

/** One request a check sent and what came back (or the transport error). The scan's own credential is redacted. */
export interface Attempt {
  id: string;
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  response?: { status: number; headers: Record<string, string>; setCookies: string[]; body: string; durationMs: number };
  error?: string;
}

export interface Finding {
  issueId: string;
  detail?: string;
  /** The attempt that shows the issue, when the check gave one as evidence. */
  attemptId?: string;
  /** The other attempts of the proof (baseline, control…), when the check gave them. */
  attemptIds?: string[];
}

export interface CheckResult {
  checkId: string;
  operationId: string;
  status: CheckStatus;
  /** Why the check was skipped or errored. */
  reason?: string;
  findings: Finding[];
  attempts: Attempt[];
  startTime: Date;
  endTime: Date;
  /** Facts the check published (JSON values), shown as the report's `data`. */
  data?: Record<string, unknown>;
}

export interface ScanOutcome {
  kind: ScanKind;
  startTime: Date;
  endTime: Date;
  results: CheckResult[];
  requestsSent: number;
  operations: Operation[];
  /** Sharded scans: where once-per-scan checks ran when it is not among `operations`. */
  oncePerScanOperation?: Operation;
  checks: LoadedCheck[];
}
