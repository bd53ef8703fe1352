/**
 * Runs a check that passed every gate: builds its context, holds it to its time budget, and turns how it ended (done,
 * timed out, skipped, threw) into its result. Releases the task's slot when it ends.
 */
import type { CheckLog, ProbeResponse } from '../api.js';
import { optionsForCheck } from '../check-options.js';
import { operationClass } from '../operation-class.js';
import { DESTRUCTIVE_REASON } from '../safety.js';
import type { CheckResult } from '../scan-result.js';
import { redactSecrets } from '../secrets.js';
import { createContext, type RunningContext } from './check-context.js';
import { createCheckDeadline, type CheckDeadline } from './check-deadline.js';
import { idleWithoutSlot, type Idle } from './idle-without-slot.js';
import type { CheckTask } from './check-task.js';
import { publishedData } from './published-data.js';
import { redactAttempt } from './redact-attempt.js';
import { SkipSignal } from './skip-signal.js';

const DEFAULT_CHECK_TIMEOUT_MS = 60_000;

const silentLog: CheckLog = { debug() {}, warn() {} };

function contextOf(task: CheckTask, signal: AbortSignal, idle: Idle): RunningContext {
  const { run, definition, operation } = task;
  const { baselines } = run;
  const canary = run.services.canary;
  return createContext({
    definition,
    operation,
    http: run.services.http,
    options: optionsForCheck(definition, run.options.given),
    secrets: task.secrets,
    facts: run.facts,
    exchanges: run.exchanges,
    factOperationId: (checkId) => run.taskOperation(checkId, operation).id,
    signal,
    idle,
    log: run.input.log ?? silentLog,
    traffic: run.traffic,
    scanState: run.scanStateOf(definition.id),
    discoveredSecrets: run.discoveredSecrets,
    // A check that repeats requests measures the wire: it never gets the shared answer.
    ...(!definition.repeatsRequests
      ? {
          baseline: {
            get: () => baselines.get(operation.id),
            set: (response: Promise<ProbeResponse>) => void baselines.set(operation.id, response),
            firstSendReuses: operationClass(operation) === 'read',
          },
        }
      : {}),
    model: run.services.model,
    modelView: run.services.modelView,
    ...(canary ? { identity: canary } : {}),
  });
}

/** The result of a run that completed: failed with findings, else passed; forged credentials it proved redacted. */
function completed(task: CheckTask, running: RunningContext, base: Partial<CheckResult>): CheckResult {
  const { run, definition, operation } = task;
  // Forged credentials the target accepted work like the supplied one: redacted from the evidence too.
  const forged = [...running.acceptedForgeries].sort((a, b) => b.length - a.length);
  if (forged.length > 0) {
    for (const attempt of running.attempts) redactAttempt(attempt, forged);
    for (const finding of running.findings)
      if (finding.detail !== undefined) finding.detail = redactSecrets(finding.detail, forged);
  }
  const data = publishedData(running.published, [...task.secrets, ...forged]);
  const status = running.findings.length > 0 ? 'failed' : 'passed';
  // A passive check on an operation the scan may not send saw nothing: not a pass, a skip with that reason.
  if (
    status === 'passed' &&
    definition.passive &&
    running.attempts.length === 0 &&
    !run.input.allowDestructive &&
    operationClass(operation) === 'destructive'
  ) {
    return task.result('skipped', { ...base, reason: DESTRUCTIVE_REASON });
  }
  return task.result(status, { ...base, findings: running.findings, ...(data ? { data } : {}) });
}

export async function runCheck(task: CheckTask): Promise<CheckResult> {
  const { run, definition } = task;
  const scanSignal = run.input.signal;
  const startedAt = new Date();
  const timeoutMs = definition.timeoutMs ?? run.input.checkTimeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
  const controller = new AbortController();
  const onScanAbort = (): void => controller.abort(scanSignal?.reason);
  scanSignal?.addEventListener('abort', onScanAbort, { once: true });
  let ended = false;
  let deadline: CheckDeadline | undefined;
  const timedOut = new Promise<'timeout'>((resolveTimeout) => {
    deadline = createCheckDeadline(timeoutMs, () => {
      controller.abort(new Error(`timed out after ${timeoutMs} ms`));
      resolveTimeout('timeout');
    });
  });
  const running = contextOf(
    task,
    controller.signal,
    idleWithoutSlot(task, () => ended, deadline!),
  );
  const base = { attempts: running.attempts, startTime: startedAt };
  try {
    // The context's options are exactly the declared ones (optionsForCheck), so it is the check's own CheckContext.
    const outcome = await Promise.race([
      definition.run(running.ctx as Parameters<typeof definition.run>[0]).then(() => 'done' as const),
      timedOut,
    ]);
    if (outcome === 'timeout')
      return task.result('errored', { ...base, reason: `timed out after ${timeoutMs} ms`, incomplete: true });
    return completed(task, running, base);
  } catch (error) {
    if (error instanceof SkipSignal)
      return task.result('skipped', {
        ...base,
        reason: error.reason,
        ...(error.incomplete ? { incomplete: true } : {}),
      });
    const message = error instanceof Error ? error.message : String(error);
    return task.result('errored', {
      ...base,
      reason: controller.signal.aborted && scanSignal?.aborted ? 'scan aborted' : message,
      incomplete: true,
    });
  } finally {
    ended = true;
    deadline!.clear();
    scanSignal?.removeEventListener('abort', onScanAbort);
    task.release?.();
  }
}
