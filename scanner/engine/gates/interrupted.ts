/** An interrupted scan (Ctrl-C, `signal`) starts no more checks: one that had not started is skipped with that reason. */
import type { CheckResult } from '../../scan-result.js';
import type { CheckTask } from '../check-task.js';

export default function interrupted(task: CheckTask): CheckResult | undefined {
  return task.run.input.signal?.aborted
    ? task.result('skipped', { reason: 'the scan was interrupted before this check ran' })
    : undefined;
}
