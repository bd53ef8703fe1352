/**
 * The identity canary (docs/architecture.md §2.6): once the supplied credential stopped working mid-scan, a check on
 * an operation that carries it does not start; it is skipped, incomplete, with when and why.
 */
import type { CheckResult } from '../../scan-result.js';
import type { CheckTask } from '../check-task.js';

export default function canaryLost(task: CheckTask): CheckResult | undefined {
  const loss = task.operation.credential ? task.run.services.canary?.lost() : undefined;
  return loss ? task.result('skipped', { reason: loss.reason, incomplete: true }) : undefined;
}
