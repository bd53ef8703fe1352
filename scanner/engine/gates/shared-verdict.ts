/**
 * `sharedVerdict`: operations with one key are judged once, on a representative — the first of them (read operations
 * before others, then scan order) whose run ended passed or failed. When it passed, the others pass as covered by it,
 * sending nothing; when it failed, each runs for its own evidence. `--per-operation` turns sharing off.
 */
import type { CheckDefinition, Operation, SharedVerdict } from '../../api.js';
import { operationClass } from '../../operation-class.js';
import { buildWireRequest } from '../../probe-request.js';
import type { CheckResult } from '../../scan-result.js';
import type { CheckTask } from '../check-task.js';
import type { ScanRun } from '../scan-run.js';

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

async function judgedOnce(task: CheckTask, shared: SharedVerdict): Promise<CheckResult | undefined> {
  const { run, definition, operation } = task;
  let key: string | undefined;
  try {
    // The key may read the dependencies' facts on this operation (they ran: gates/depends-on.ts comes first).
    key = shared.key(operation, (checkId, name) =>
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
      reason: `covered by ${covering.id}: same ${shared.subject}, which passed this check there (--per-operation sends it here too)`,
    });
  return undefined;
}

export default function sharedVerdict(task: CheckTask): Promise<CheckResult | undefined> | undefined {
  const shared = task.definition.sharedVerdict;
  return shared && !task.run.input.perOperation ? judgedOnce(task, shared) : undefined;
}
