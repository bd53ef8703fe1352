/**
 * Runs exactly the checks it is given over the operations: one task per (check, operation), scheduled in dependency
 * order (ties by id), each through the gates (gates.ts) to its run, concurrently under `concurrency` and the per-host
 * rate limit; then the results collected, root causes linked and public operations' findings capped.
 */
import { scannerError } from '../errors.js';
import { assertAcyclic, assertDependenciesExist } from '../graph.js';
import { capPublicFindings } from '../public-operations.js';
import { linkRootCauses } from '../root-causes.js';
import type { CheckResult, ScanOutcome } from '../scan-result.js';
import { redactResults } from './redact-results.js';
import { runTask } from './run-task.js';
import type { ScanInput } from './scan-input.js';
import { createScanRun, type ScanRun } from './scan-run.js';
import { openScanServices } from './scan-services.js';
import { modelOutcome } from '../model/model-outcome.js';

/** Starts every task, in dependency order; returns the reported ones' results, in that order. */
function schedule(run: ScanRun): Promise<CheckResult>[] {
  const { input } = run;
  const results: Promise<CheckResult>[] = [];
  const total = run.ordered.reduce((n, d) => n + run.operationsOf(d).filter((op) => run.reports(d, op)).length, 0);
  let done = 0;
  for (const definition of run.ordered) {
    for (const operation of run.operationsOf(definition)) {
      const reported = run.reports(definition, operation);
      const promise = runTask(run, definition, operation).then((r) => {
        // A run that ended before its key was known (a skip, a dependency) is judged on its own: no key.
        if (definition.sharedVerdict) run.sharedVerdictKeys.settle(definition.id, operation.id, undefined);
        if (reported) input.onProgress?.(++done, total);
        return r;
      });
      run.tasks.add(definition.id, operation.id, promise);
      if (reported) results.push(promise);
    }
  }
  run.tasks.scheduled();
  return results;
}

export async function runScan(input: ScanInput): Promise<ScanOutcome> {
  const startTime = new Date();
  const definitions = input.checks.map((c) => c.definition);
  const describe = (id: string): string => input.checks.find((c) => c.definition.id === id)?.file ?? id;
  assertDependenciesExist(definitions, describe);
  assertAcyclic(definitions, describe);
  if (input.operations.length === 0) throw scannerError('invalid_argument', 'nothing to scan: no operations');

  const opened = await openScanServices(input);
  const run = createScanRun({ ...input, operations: opened.operations }, opened.services);
  const { http, canary } = run.services;
  try {
    const results = await Promise.all(schedule(run));
    await canary?.end();
    // What the scan created and no check deleted, its creator deletes now (or it is reported left behind).
    if (!input.signal?.aborted) await run.services.model.cleanUp(run.services.modelSend);
    redactResults(results, run.discoveredSecrets.forms());
    linkRootCauses(results);
    capPublicFindings(results, run.byId);
    return {
      kind: input.kind,
      startTime,
      endTime: new Date(),
      results,
      requestsSent: http.requestsSent(),
      requestsRefused: http.requestsRefused(),
      ...(canary ? { canary: canary.state() } : {}),
      model: modelOutcome(run.services.model),
      operations: run.input.operations,
      ...(input.oncePerScan ? { oncePerScanOperation: input.oncePerScan.operation } : {}),
      checks: input.checks,
    };
  } finally {
    run.services.close();
  }
}
