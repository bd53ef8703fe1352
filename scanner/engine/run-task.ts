/**
 * One check on one operation: through the gates in order (gates.ts), then the scheduling rules not yet in the table,
 * then, when none ended it, the check's run.
 */
import type { CheckDefinition, Operation } from '../api.js';
import { operationClass } from '../operation-class.js';
import { buildWireRequest } from '../probe-request.js';
import type { CheckResult } from '../scan-result.js';
import { createCheckTask } from './check-task.js';
import { GATES } from './gates.js';
import { runCheck } from './run-check.js';
import type { ScanRun } from './scan-run.js';

/** The order representatives are chosen in: read operations first (the forged request only reads), then scan order. */
function representativeOrder(run: ScanRun, definition: CheckDefinition): Operation[] {
  const all = run.operationsOf(definition);
  return [...all.filter((op) => operationClass(op) === 'read'), ...all.filter((op) => operationClass(op) !== 'read')];
}

/**
 * The operation that already judged `key` for this check, when its run passed: the first operation before this one
 * in representative order with the same key whose own run ended passed or failed (skips, errors and covered runs
 * judged nothing). A failed one means every operation of the key runs for its own evidence.
 */
async function coveringOperation(
  run: ScanRun,
  definition: CheckDefinition,
  operation: Operation,
  key: string,
): Promise<Operation | undefined> {
  for (const earlier of representativeOrder(run, definition)) {
    if (earlier.id === operation.id) return undefined;
    if ((await run.sharedVerdictKeys.keyOf(definition.id, earlier.id)) !== key) continue;
    const verdict = await run.tasks.of(definition.id, earlier.id)!;
    if (verdict.status === 'failed') return undefined;
    if (verdict.status === 'passed' && !verdict.coveredBy) return earlier;
  }
  return undefined;
}
export async function runTask(run: ScanRun, definition: CheckDefinition, operation: Operation): Promise<CheckResult> {
  const task = createCheckTask(run, definition, operation);
  const { input } = run;
  for (const gate of GATES) {
    const verdict = gate(task);
    // Only a gate that waits yields: tasks that wait for nothing take slots in the order they were scheduled.
    const ended = verdict instanceof Promise ? await verdict : verdict;
    if (ended) {
      task.release?.();
      return ended;
    }
  }
  if (definition.sharedVerdict && !input.perOperation) {
    let key: string | undefined;
    try {
      key = definition.sharedVerdict.key(operation, (checkId, name) =>
        (definition.dependsOn ?? []).includes(checkId)
          ? (run.facts.get(checkId, run.taskOperation(checkId, operation).id)?.get(name) as never)
          : undefined,
      );
    } catch (error) {
      return task.result('errored', {
        reason: `sharedVerdict.key threw: ${error instanceof Error ? error.message : String(error)}`,
        incomplete: true,
      });
    } finally {
      run.sharedVerdictKeys.settle(definition.id, operation.id, key);
    }
    const covering = key === undefined ? undefined : await coveringOperation(run, definition, operation, key);
    // An operation the send gate refuses (once the representative ran: its writes may have created the object) is
    // judged on its own, so it is skipped with that reason, not passed by a verdict proved where sending was allowed.
    if (covering && !run.services.http.wouldRefuse(buildWireRequest(operation)))
      return task.result('passed', {
        coveredBy: covering.id,
        reason: `covered by ${covering.id}: same ${definition.sharedVerdict.subject}, which passed this check there (--per-operation sends it here too)`,
      });
  }
  if (definition.passive) {
    // Passive checks wait for every other check on their operation; they may only look once all are scheduled.
    await run.tasks.allScheduled;
    // (A check that depends on a passive one runs after it, so it is not waited for: that would be a deadlock.)
    const isPassive = (id: string): boolean => run.byId.get(id)?.passive === true;
    await Promise.all(
      run.ordered
        .filter((d) => !d.passive && !(d.dependsOn ?? []).some(isPassive))
        .map((d) => run.tasks.of(d.id, run.taskOperation(d.id, operation).id))
        .filter((t): t is Promise<CheckResult> => t !== undefined),
    );
  }

  task.release = await run.slots.acquire();
  if (input.signal?.aborted) {
    task.release();
    return task.result('skipped', { reason: 'the scan was interrupted before this check ran' });
  }
  return runCheck(task);
}
