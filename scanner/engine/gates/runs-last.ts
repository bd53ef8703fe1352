/**
 * `runsLast`: the check runs on each operation after every other check there has finished (it can count their
 * traffic) — except passive checks and the checks that depend on it, which wait for it, other runsLast checks, and
 * once-per-scan ones.
 */
import type { CheckTask } from '../check-task.js';

async function afterTheOthers(task: CheckTask): Promise<undefined> {
  const { run, definition, operation } = task;
  await run.tasks.allScheduled;
  const others = run.ordered
    .filter((d) => !d.runsLast && !d.passive && !d.oncePerScan && d.id !== definition.id)
    .filter((d) => !run.dependentsOf(definition.id).has(d.id))
    .map((d) => run.tasks.of(d.id, operation.id));
  await Promise.all(others.filter((t) => t !== undefined));
  return undefined;
}

export default function runsLast(task: CheckTask): Promise<undefined> | undefined {
  return task.definition.runsLast ? afterTheOthers(task) : undefined;
}
