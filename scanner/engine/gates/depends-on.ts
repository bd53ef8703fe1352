/**
 * `dependsOn`: a check runs after, and only if, every check it depends on passed on the same operation (the first one
 * for a once-per-scan dependency); else it is skipped with the dependency, its status and its reason
 * (docs/architecture.md §2.3).
 */
import type { CheckResult } from '../../scan-result.js';
import type { CheckTask } from '../check-task.js';

async function afterDependencies(task: CheckTask, dependsOn: readonly string[]): Promise<CheckResult | undefined> {
  const { run, operation } = task;
  for (const dep of dependsOn) {
    const depResult = await run.tasks.of(dep, run.taskOperation(dep, operation).id)!;
    if (depResult.status !== 'passed') {
      const why = depResult.reason ? `: ${depResult.reason}` : '';
      // A dependency that could not run for a reason that makes the scan incomplete makes this one incomplete too.
      const incomplete = depResult.incomplete || depResult.status === 'errored';
      return task.result('skipped', {
        reason: `dependency ${dep} ${depResult.status}${why}`,
        startTime: new Date(),
        ...(incomplete ? { incomplete } : {}),
      });
    }
  }
  return undefined;
}

export default function dependsOn(task: CheckTask): Promise<CheckResult | undefined> | undefined {
  const deps = task.definition.dependsOn ?? [];
  // Dependencies are scheduled first (dependency order), so each one's task is in the table already.
  return deps.length > 0 ? afterDependencies(task, deps) : undefined;
}
