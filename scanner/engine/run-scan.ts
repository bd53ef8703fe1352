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
import { followChains } from './follow-chains.js';
import { createScanRun, type ScanRun } from './scan-run.js';
import { openScanServices } from './scan-services.js';
import { modelOutcome } from '../model/model-outcome.js';

/**
 * The exclusive checks' tasks (`CheckDefinition.exclusive`), after every other task has ended: one at a time, so no
 * other check sends while one of them has changed a scan identity (raised its role to prove it can).
 */
async function runExclusive(run: ScanRun, progress: Progress): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const definition of run.ordered.filter((d) => d.exclusive))
    for (const operation of run.operationsOf(definition)) {
      const result = await runTask(run, definition, operation);
      run.tasks.add(definition.id, operation.id, Promise.resolve(result));
      if (run.reports(definition, operation)) {
        results.push(result);
        progress.done();
      }
    }
  return results;
}

/** `onProgress` over every reported task, the exclusive ones (run last) included. */
interface Progress {
  done(): void;
}

function progressOf(run: ScanRun): Progress {
  const total = run.ordered.reduce((n, d) => n + run.operationsOf(d).filter((op) => run.reports(d, op)).length, 0);
  let done = 0;
  return { done: () => run.input.onProgress?.(++done, total) };
}

/** Starts every task but the exclusive ones, in dependency order; returns the reported ones' results, in that order. */
function schedule(run: ScanRun, progress: Progress): Promise<CheckResult>[] {
  const results: Promise<CheckResult>[] = [];
  for (const definition of run.ordered.filter((d) => !d.exclusive)) {
    for (const operation of run.operationsOf(definition)) {
      const reported = run.reports(definition, operation);
      const promise = runTask(run, definition, operation).then((r) => {
        // A run that ended before its key was known (a skip, a dependency) is judged on its own: no key.
        if (definition.sharedVerdict) run.sharedVerdictKeys.settle(definition.id, operation.id, undefined);
        if (reported) progress.done();
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
    // A proved escalation: the function-level and input checks again as the raised identity, then its role set back.
    const progress = progressOf(run);
    const scheduled = await Promise.all(schedule(run, progress));
    const results = await followChains(run, [...scheduled, ...(await runExclusive(run, progress))]);
    await canary?.end();
    // What the scan created and no check deleted, its creator deletes now (or it is reported left behind).
    if (!input.signal?.aborted) {
      // What the checks changed on the identities' own records is set back first (they may still need them to delete).
      await run.services.model.restoreOwn(run.services.modelSend);
      await run.services.model.cleanUp(run.services.modelSend);
    }
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
