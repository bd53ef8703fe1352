/** One check on one operation on its way through the gates to its run, and the result any step ends it with. */
import type { CheckDefinition, Operation } from '../api.js';
import { inFlagTerms } from '../completeness.js';
import type { CheckResult } from '../scan-result.js';
import { redactSecrets, secretsOf } from '../secrets.js';
import type { ScanRun } from './scan-run.js';

export interface CheckTask {
  readonly run: ScanRun;
  readonly definition: CheckDefinition;
  readonly operation: Operation;
  /** Every credential of the scan for this operation (`secretsOf`), redacted from what the check records. */
  readonly secrets: readonly string[];
  /** Set once the task holds a `--concurrency` slot (gates/concurrency-slot.ts); called when the task ends. */
  release?: () => void;
  /** This task's result: a reason is redacted, and a skip's reason names flags, not option keys. */
  result(status: CheckResult['status'], extra?: Partial<CheckResult>): CheckResult;
}

export function createCheckTask(run: ScanRun, definition: CheckDefinition, operation: Operation): CheckTask {
  const begin = new Date();
  const secrets = secretsOf(operation, run.options.secrets);
  return {
    run,
    definition,
    operation,
    secrets,
    // A reason may quote a request or an option (an error message, a skip): credentials never reach the report.
    result: (status, extra = {}) => ({
      checkId: definition.id,
      operationId: operation.id,
      status,
      findings: [],
      attempts: [],
      startTime: begin,
      endTime: new Date(),
      ...extra,
      // Reasons speak the command line: `--jwt-expired-token`, not the option key `expiredToken`.
      ...(extra.reason !== undefined
        ? {
            reason:
              status === 'skipped'
                ? inFlagTerms(redactSecrets(extra.reason, secrets), run.options.declared)
                : redactSecrets(extra.reason, secrets),
          }
        : {}),
    }),
  };
}
