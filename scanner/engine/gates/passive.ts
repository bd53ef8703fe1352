/**
 * `passive`: the check sends nothing and reads what the others received on the operation (`ctx.observed()`), so it
 * starts only once every non-passive check there has finished — except the checks that depend on a passive check,
 * which run after it.
 */
import type { CheckDefinition } from '../../api.js';
import type { CheckResult } from '../../scan-result.js';
import type { CheckTask } from '../check-task.js';

async function afterTheOthers(task: CheckTask): Promise<undefined> {
  const { run, operation } = task;
  // The table is complete only once every task is scheduled.
  await run.tasks.allScheduled;
  const isPassive = (id: string): boolean => run.byId.get(id)?.passive === true;
  // Waiting for a check that depends on a passive one would be a deadlock: it waits for this one.
  const waitedFor = (d: CheckDefinition): boolean => !d.passive && !(d.dependsOn ?? []).some(isPassive);
  const others = run.ordered
    .filter(waitedFor)
    .map((d) => run.tasks.of(d.id, run.taskOperation(d.id, operation).id))
    .filter((t): t is Promise<CheckResult> => t !== undefined);
  await Promise.all(others);
  return undefined;
}

export default function passive(task: CheckTask): Promise<undefined> | undefined {
  return task.definition.passive ? afterTheOthers(task) : undefined;
}
