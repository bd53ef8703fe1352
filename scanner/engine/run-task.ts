/** One check on one operation: through the gates in order (gates.ts), then, when none ended it, the check's run. */
import type { CheckDefinition, Operation } from '../api.js';
import type { CheckResult } from '../scan-result.js';
import { createCheckTask } from './check-task.js';
import { GATES } from './gates.js';
import { runCheck } from './run-check.js';
import type { ScanRun } from './scan-run.js';

export async function runTask(run: ScanRun, definition: CheckDefinition, operation: Operation): Promise<CheckResult> {
  const task = createCheckTask(run, definition, operation);
  for (const gate of GATES) {
    const verdict = gate(task);
    // Only a gate that waits yields: tasks that wait for nothing take slots in the order they were scheduled.
    const ended = verdict instanceof Promise ? await verdict : verdict;
    if (ended) {
      task.release?.();
      return ended;
    }
  }
  return runCheck(task);
}
