/**
 * Runs exactly the checks it is given over the operations: dependency order (ties by id), independent checks
 * concurrently under `concurrency` and the per-host rate limit, per-check timeouts, and one status per check.
 */
import { redactSecrets, secretsOf } from '../secrets.js';
import { collectOptions, optionsForCheck, secretValues } from '../check-options.js';
import type { CheckDefinition, CheckLog, Operation, ProbeResponse } from '../api.js';
import { createContext } from './check-context.js';
import { redactAttempt } from './redact-attempt.js';
import { SkipSignal } from './skip-signal.js';
import { createExchangeLog } from './stores/exchange-log.js';
import { createFactStore } from './stores/fact-store.js';
import { createTrafficStore } from './stores/traffic-store.js';
import { scannerError } from '../errors.js';
import { assertAcyclic, assertDependenciesExist, topologicalOrder } from '../graph.js';
import { createScanHttp, type TlsOptions } from '../http.js';
import { buildWireRequest } from '../probe-request.js';
import type { LoadedCheck } from '../loader.js';
import type { Rate } from '../rate-limiter.js';
import type { CheckResult, ScanKind, ScanOutcome } from '../scan-result.js';
import { linkRootCauses } from '../root-causes.js';
import { createSemaphore } from '../semaphore.js';
import { canaryOperation, createIdentityCanary, type IdentityCanary } from '../identity-canary.js';
import { operationClass } from '../operation-class.js';
import { DESTRUCTIVE_REASON } from '../safety.js';
import { capPublicFindings } from '../public-operations.js';
import { credentialGap, CREDENTIAL_PROBE, inFlagTerms } from '../completeness.js';

const DEFAULT_CONCURRENCY = 8;
const DEFAULT_CHECK_TIMEOUT_MS = 60_000;
const DEFAULT_SCAN_KINDS: ScanKind[] = ['curl', 'openapi', 'graphql'];

export interface ScanInput {
  kind: ScanKind;
  operations: Operation[];
  checks: LoadedCheck[];
  /**
   * Values the user gave for the checks' declared options, by option name (`jwtSecretsFile`, `asOther`…); each check
   * receives only the ones it declared, with its defaults.
   */
  options?: Record<string, unknown>;
  rate?: Rate;
  concurrency?: number;
  requestTimeoutMs?: number;
  connectTimeoutMs?: number;
  checkTimeoutMs?: number;
  followRedirects?: boolean;
  maxRedirects?: number;
  tls?: TlsOptions;
  proxy?: string;
  /** `--allow-destructive`: destructive operations may be sent (else the HTTP layer refuses them). */
  allowDestructive?: boolean;
  /** `--per-operation`: every check judges every operation itself, no verdict is shared (`sharedVerdict`). */
  perOperation?: boolean;
  /** The identity canary: re-validate the credential at least every this many requests (off when not given). */
  canaryEvery?: number;
  /**
   * Sharded scans: once-per-scan checks run on `operation` (the unsharded scan's first operation, which may lie in
   * another slice) and are reported only when `report` is true (the first slice), so the slices' reports merge into
   * the unsharded scan's. Other slices still run them, unreported, for the checks that read their facts.
   */
  oncePerScan?: { operation: Operation; report: boolean };
  onProgress?: (done: number, total: number) => void;
  /** Diagnostics from checks (`ctx.log`); silent by default. */
  log?: CheckLog;
  signal?: AbortSignal;
}

const silentLog: CheckLog = { debug() {}, warn() {} };

function runsIn(definition: CheckDefinition, kind: ScanKind): boolean {
  return (definition.scanKinds ?? DEFAULT_SCAN_KINDS).includes(kind);
}

/** Published facts as JSON for the report, with every credential of the scan redacted wherever it appears. */
function jsonData(published: Map<string, unknown>, secrets: readonly string[]): Record<string, unknown> | undefined {
  if (published.size === 0) return undefined;
  try {
    const text = redactSecrets(
      JSON.stringify(Object.fromEntries(published)),
      secrets.map((s) => JSON.stringify(s).slice(1, -1)),
    );
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

export async function runScan(input: ScanInput): Promise<ScanOutcome> {
  const startTime = new Date();
  const definitions = input.checks.map((c) => c.definition);
  const describe = (id: string): string => input.checks.find((c) => c.definition.id === id)?.file ?? id;
  assertDependenciesExist(definitions, describe);
  assertAcyclic(definitions, describe);
  if (input.operations.length === 0) throw scannerError('invalid_argument', 'nothing to scan: no operations');

  const ordered = topologicalOrder(definitions);
  const byId = new Map(definitions.map((d) => [d.id, d]));
  const firstOperation = input.oncePerScan?.operation ?? input.operations[0];
  const reports = (d: CheckDefinition): boolean =>
    runsIn(d, input.kind) && (!d.oncePerScan || input.oncePerScan?.report !== false);
  const operationsOf = (d: CheckDefinition): Operation[] => (d.oncePerScan ? [firstOperation] : input.operations);
  const factOperationId =
    (operation: Operation) =>
    (checkId: string): string =>
      byId.get(checkId)?.oncePerScan ? firstOperation.id : operation.id;

  const http = createScanHttp({
    rate: input.rate,
    requestTimeoutMs: input.requestTimeoutMs,
    connectTimeoutMs: input.connectTimeoutMs,
    followRedirects: input.followRedirects,
    maxRedirects: input.maxRedirects,
    tls: input.tls,
    proxy: input.proxy,
    allowDestructive: input.allowDestructive,
  });
  const canaryTarget = canaryOperation(input.operations);
  const canary: IdentityCanary | undefined =
    canaryTarget && input.canaryEvery !== undefined
      ? createIdentityCanary(http, canaryTarget, input.canaryEvery, input.signal)
      : undefined;
  // Checks that send or judge the supplied credential: the probe and everything that depends on it, transitively.
  const credentialChecks = new Set<string>();
  for (const d of ordered)
    if (d.id === CREDENTIAL_PROBE || (d.dependsOn ?? []).some((dep) => credentialChecks.has(dep)))
      credentialChecks.add(d.id);
  const given = input.options ?? {};
  const declaredOptions = collectOptions(input.checks.map((c) => ({ definition: c.definition, shown: c.file })));
  const optionSecrets = secretValues(declaredOptions, given);
  const facts = createFactStore();
  const exchanges = createExchangeLog();
  // Passive checks wait for every other check on their operation; they may only look once all are scheduled.
  let scheduled!: () => void;
  const allScheduled = new Promise<void>((resolveScheduled) => (scheduled = resolveScheduled));
  // (A check that depends on a passive one runs after it, so it is not waited for: that would be a deadlock.)
  const isPassive = (id: string): boolean => byId.get(id)?.passive === true;
  const othersOn = (operation: Operation): Promise<CheckResult>[] =>
    ordered
      .filter((d) => !d.passive && !(d.dependsOn ?? []).some(isPassive))
      .map((d) => tasks.get(taskKey(d.id, (d.oncePerScan ? firstOperation : operation).id)))
      .filter((t): t is Promise<CheckResult> => t !== undefined);
  const traffic = createTrafficStore();
  // One baseline answer per read operation, shared by the checks' first as-given request (fewer identical requests).
  const baselines = new Map<string, Promise<ProbeResponse>>();
  const scanStates = new Map<string, Map<string, unknown>>();
  const stateOf = (checkId: string): Map<string, unknown> => {
    const state = scanStates.get(checkId) ?? new Map<string, unknown>();
    scanStates.set(checkId, state);
    return state;
  };
  // Shared verdicts: each (check, operation)'s key once its dependencies ran there (undefined: judged on its own).
  const sharedKeys = new Map<string, { promise: Promise<string | undefined>; settle: (key?: string) => void }>();
  const sharedKeyOf = (checkId: string, operationId: string) => {
    const k = taskKey(checkId, operationId);
    let entry = sharedKeys.get(k);
    if (!entry) {
      let settle!: (key?: string) => void;
      const promise = new Promise<string | undefined>((resolveKey) => (settle = resolveKey));
      entry = { promise, settle };
      sharedKeys.set(k, entry);
    }
    return entry;
  };
  // The order representatives are chosen in: read operations first (the forged request only reads), then scan order.
  const representativeOrder = (definition: CheckDefinition): Operation[] => {
    const all = operationsOf(definition);
    return [...all.filter((op) => operationClass(op) === 'read'), ...all.filter((op) => operationClass(op) !== 'read')];
  };
  /**
   * The operation that already judged `key` for this check, when its run passed: the first operation before this one
   * in representative order with the same key whose own run ended passed or failed (skips, errors and covered runs
   * judged nothing). A failed one means every operation of the key runs for its own evidence.
   */
  const coveringOperation = async (
    definition: CheckDefinition,
    operation: Operation,
    key: string,
  ): Promise<Operation | undefined> => {
    for (const earlier of representativeOrder(definition)) {
      if (earlier.id === operation.id) return undefined;
      if ((await sharedKeyOf(definition.id, earlier.id).promise) !== key) continue;
      const verdict = await tasks.get(taskKey(definition.id, earlier.id))!;
      if (verdict.status === 'failed') return undefined;
      if (verdict.status === 'passed' && !verdict.coveredBy) return earlier;
    }
    return undefined;
  };
  const slots = createSemaphore(input.concurrency ?? DEFAULT_CONCURRENCY);
  const tasks = new Map<string, Promise<CheckResult>>();
  const taskKey = (checkId: string, operationId: string): string => `${checkId}\u0000${operationId}`;
  const reported: Promise<CheckResult>[] = [];
  const total = ordered.filter(reports).reduce((n, d) => n + operationsOf(d).length, 0);
  let done = 0;

  const runTask = async (definition: CheckDefinition, operation: Operation): Promise<CheckResult> => {
    const begin = new Date();
    const secrets = secretsOf(operation, optionSecrets);
    // A reason may quote a request or an option (an error message, a skip): credentials never reach the report.
    const result = (status: CheckResult['status'], extra: Partial<CheckResult> = {}): CheckResult => ({
      checkId: definition.id,
      operationId: operation.id,
      status,
      findings: [],
      attempts: [],
      startTime: begin,
      endTime: new Date(),
      ...extra,
      // Reasons speak the command line: `--jwt-expired-token`, not the option key `expiredToken`.
      ...(extra.reason !== undefined
        ? {
            reason:
              status === 'skipped'
                ? inFlagTerms(redactSecrets(extra.reason, secrets), declaredOptions)
                : redactSecrets(extra.reason, secrets),
          }
        : {}),
    });
    if (!runsIn(definition, input.kind)) return result('skipped', { reason: `does not run in ${input.kind} scans` });
    for (const dep of definition.dependsOn ?? []) {
      const depOperation = byId.get(dep)!.oncePerScan ? firstOperation : operation;
      const depResult = await tasks.get(taskKey(dep, depOperation.id))!;
      if (depResult.status !== 'passed') {
        const why = depResult.reason ? `: ${depResult.reason}` : '';
        // A dependency that could not run for a reason that makes the scan incomplete makes this one incomplete too.
        const incomplete = depResult.incomplete || depResult.status === 'errored';
        return result('skipped', {
          reason: `dependency ${dep} ${depResult.status}${why}`,
          startTime: new Date(),
          ...(incomplete ? { incomplete } : {}),
        });
      }
    }
    if (definition.runsLast) {
      // After the others on this operation (passive checks, which wait for this one, and runsLast ones excepted).
      await allScheduled;
      const others = ordered
        .filter((d) => !d.runsLast && !d.passive && !d.oncePerScan && d.id !== definition.id)
        .map((d) => tasks.get(taskKey(d.id, operation.id)));
      await Promise.all(others.filter((t) => t !== undefined));
    }
    const gap = credentialChecks.has(definition.id) ? credentialGap(operation) : undefined;
    if (gap) return result('skipped', { reason: gap, incomplete: true });
    const loss = operation.credential ? canary?.lost() : undefined;
    if (loss) return result('skipped', { reason: loss.reason, incomplete: true });
    if (definition.repeatsRequests && operationClass(operation) !== 'read') {
      return result('skipped', {
        reason: `repeats requests, so it runs on read operations only (${operation.id} is ${operationClass(operation)})`,
      });
    }
    let applies: true | string;
    try {
      applies = definition.appliesTo ? definition.appliesTo(operation) : true;
    } catch (error) {
      return result('errored', {
        reason: `appliesTo threw: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
    if (applies !== true) return result('skipped', { reason: applies });
    if (definition.sharedVerdict && !input.perOperation) {
      let key: string | undefined;
      try {
        key = definition.sharedVerdict.key(operation, (checkId, name) =>
          (definition.dependsOn ?? []).includes(checkId)
            ? (facts.get(checkId, factOperationId(operation)(checkId))?.get(name) as never)
            : undefined,
        );
      } catch (error) {
        return result('errored', {
          reason: `sharedVerdict.key threw: ${error instanceof Error ? error.message : String(error)}`,
          incomplete: true,
        });
      } finally {
        sharedKeyOf(definition.id, operation.id).settle(key);
      }
      const covering = key === undefined ? undefined : await coveringOperation(definition, operation, key);
      // An operation the send gate refuses (once the representative ran: its writes may have created the object) is
      // judged on its own, so it is skipped with that reason, not passed by a verdict proved where sending was allowed.
      if (covering && !http.wouldRefuse(buildWireRequest(operation)))
        return result('passed', {
          coveredBy: covering.id,
          reason: `covered by ${covering.id}: same ${definition.sharedVerdict.subject}, which passed this check there (--per-operation sends it here too)`,
        });
    }
    if (definition.passive) {
      await allScheduled;
      await Promise.all(othersOn(operation));
    }

    const release = await slots.acquire();
    if (input.signal?.aborted) {
      release();
      return result('skipped', { reason: 'the scan was interrupted before this check ran' });
    }
    const startedAt = new Date();
    const timeoutMs = definition.timeoutMs ?? input.checkTimeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
    const controller = new AbortController();
    const onScanAbort = (): void => controller.abort(input.signal?.reason);
    input.signal?.addEventListener('abort', onScanAbort, { once: true });
    const running = createContext({
      definition,
      operation,
      http,
      options: optionsForCheck(definition, given),
      secrets,
      facts,
      exchanges,
      factOperationId: factOperationId(operation),
      signal: controller.signal,
      log: input.log ?? silentLog,
      traffic,
      scanState: stateOf(definition.id),
      ...(!definition.repeatsRequests && operationClass(operation) === 'read'
        ? {
            baseline: {
              get: () => baselines.get(operation.id),
              set: (response: Promise<ProbeResponse>) => void baselines.set(operation.id, response),
            },
          }
        : {}),
      ...(canary ? { identity: canary } : {}),
    });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolveTimeout) => {
      timer = setTimeout(() => {
        controller.abort(new Error(`timed out after ${timeoutMs} ms`));
        resolveTimeout('timeout');
      }, timeoutMs);
    });
    const base = { attempts: running.attempts, startTime: startedAt };
    try {
      // The context's options are exactly the declared ones (optionsForCheck), so it is the check's own CheckContext.
      const outcome = await Promise.race([
        definition.run(running.ctx as Parameters<typeof definition.run>[0]).then(() => 'done' as const),
        timedOut,
      ]);
      if (outcome === 'timeout')
        return result('errored', { ...base, reason: `timed out after ${timeoutMs} ms`, incomplete: true });
      // Forged credentials the target accepted work like the supplied one: redacted from the evidence too.
      const forged = [...running.acceptedForgeries].sort((a, b) => b.length - a.length);
      if (forged.length > 0) {
        for (const attempt of running.attempts) redactAttempt(attempt, forged);
        for (const finding of running.findings)
          if (finding.detail !== undefined) finding.detail = redactSecrets(finding.detail, forged);
      }
      const data = jsonData(running.published, [...secrets, ...forged]);
      const status = running.findings.length > 0 ? 'failed' : 'passed';
      // A passive check on an operation the scan may not send saw nothing: not a pass, a skip with that reason.
      if (
        status === 'passed' &&
        definition.passive &&
        running.attempts.length === 0 &&
        !input.allowDestructive &&
        operationClass(operation) === 'destructive'
      ) {
        return result('skipped', { ...base, reason: DESTRUCTIVE_REASON });
      }
      return result(status, { ...base, findings: running.findings, ...(data ? { data } : {}) });
    } catch (error) {
      if (error instanceof SkipSignal)
        return result('skipped', { ...base, reason: error.reason, ...(error.incomplete ? { incomplete: true } : {}) });
      const message = error instanceof Error ? error.message : String(error);
      return result('errored', {
        ...base,
        reason: controller.signal.aborted && input.signal?.aborted ? 'scan aborted' : message,
        incomplete: true,
      });
    } finally {
      clearTimeout(timer);
      input.signal?.removeEventListener('abort', onScanAbort);
      release();
    }
  };

  for (const definition of ordered) {
    for (const operation of operationsOf(definition)) {
      const promise = runTask(definition, operation).then((r) => {
        // A run that ended before its key was known (a skip, a dependency) is judged on its own: no key.
        if (definition.sharedVerdict) sharedKeyOf(definition.id, operation.id).settle(undefined);
        if (reports(definition)) input.onProgress?.(++done, total);
        return r;
      });
      tasks.set(taskKey(definition.id, operation.id), promise);
      if (reports(definition)) reported.push(promise);
    }
  }
  scheduled();
  try {
    const results = await Promise.all(reported);
    await canary?.end();
    linkRootCauses(results);
    capPublicFindings(results, byId);
    return {
      kind: input.kind,
      startTime,
      endTime: new Date(),
      results,
      requestsSent: http.requestsSent(),
      requestsRefused: http.requestsRefused(),
      ...(canary ? { canary: canary.state() } : {}),
      operations: input.operations,
      ...(input.oncePerScan ? { oncePerScanOperation: input.oncePerScan.operation } : {}),
      checks: input.checks,
    };
  } finally {
    http.close();
  }
}
