/** `appliesTo`: the check's own test of the operation — `true` runs it, a string is the reason it is skipped with. */
import type { CheckResult } from '../../scan-result.js';
import type { CheckTask } from '../check-task.js';

export default function appliesTo(task: CheckTask): CheckResult | undefined {
  const { definition, operation } = task;
  let applies: true | string;
  try {
    applies = definition.appliesTo ? definition.appliesTo(operation) : true;
  } catch (error) {
    // The check's own code failed: errored, never a pass or a skip that would hide it.
    return task.result('errored', {
      reason: `appliesTo threw: ${error instanceof Error ? error.message : String(error)}`,
    });
  }
  return applies === true ? undefined : task.result('skipped', { reason: applies });
}
