/**
 * `passive`: the check sends nothing and reads what the others received on the operation (`ctx.observed()`), so it
 * starts only once every non-passive check there has finished — except the checks that depend on a passive check,
 * directly or through others, which run after it.
 */
import type { CheckDefinition } from '../../api.js';
import type { CheckResult } from '../../scan-result.js';
import type { CheckTask } from '../check-task.js';

async function afterTheOthers(task: CheckTask): Promise<undefined> {
  const { run, operation } = task;
  // The table is complete only once every task is scheduled.
  await run.tasks.allScheduled;
  // Waiting for a check downstream of a passive one would be a deadlock: it waits for this one (or another passive
  // check that waits for this one's dependencies).
  const downstream = new Set(run.ordered.filter((d) => d.passive).flatMap((d) => [...run.dependentsOf(d.id)]));
  const waitedFor = (d: CheckDefinition): boolean => !d.passive && !downstream.has(d.id);
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
