/**
 * Privilege chains (docs/architecture.md §2.8): after the checks, when a check proved that the first identity can
 * raise its own role (ApiModel.recordEscalation), the engine raises it again, runs the checks that ask for it
 * (`rerunsAsRaised`: the built-in function-level and input checks, `bfla.*`, `injection.*`, `ssrf.*`) once more as the
 * raised identity on the operations that refused it, and sets the role back. A finding of that pass replaces the first pass's result of its check on its
 * operation and carries the chain: step 1 the raise, step 2 what the raised identity reached.
 */
import type { Operation } from '../api.js';
import type { Attempt, ScannedCheck, CheckResult } from '../scan-result.js';
import type { Escalation } from '../model/escalations.js';
import { runTask } from './run-task.js';
import { createScanRun, type ScanRun } from './scan-run.js';

const AUTH_BASELINE = 'auth.baseline';
const ok = (status: number): boolean => status >= 200 && status < 300;

/** The chain checks and, transitively, what they depend on (their dependencies' results are not reported again). */
function chainChecks(checks: readonly ScannedCheck[]): { run: ScannedCheck[]; reported: Set<string> } {
  const byId = new Map(checks.map((c) => [c.definition.id, c]));
  const reported = new Set(
    checks
      // Not the exclusive ones (the escalation itself): they change the identity, which is raised already.
      .filter((c) => c.definition.rerunsAsRaised && !c.definition.oncePerScan && !c.definition.exclusive)
      .map((c) => c.definition.id),
  );
  const wanted = new Set<string>();
  const add = (id: string): void => {
    if (wanted.has(id) || !byId.has(id)) return;
    wanted.add(id);
    for (const dep of byId.get(id)!.definition.dependsOn ?? []) add(dep);
  };
  for (const id of reported) add(id);
  return { run: checks.filter((c) => wanted.has(c.definition.id)), reported };
}

/** Operations where the first identity was refused (auth.baseline: a valid credential not permitted there). */
function refusedOperations(run: ScanRun) {
  return run.input.operations.filter((operation) => {
    const facts = run.facts.get(AUTH_BASELINE, operation.id)?.get('facts') as
      { notPermitted?: boolean; statuses?: { credential?: number } } | undefined;
    return facts?.notPermitted === true || facts?.statuses?.credential === 403;
  });
}

/**
 * The exchanges that proved the escalation (the first pass's finding whose sentence it carries): copied into each
 * chained result, so a reached finding shows the raise it depends on, not only its sentence.
 */
function escalationProof(results: readonly CheckResult[], escalation: Escalation): Attempt[] {
  for (const result of results) {
    if (result.operationId !== escalation.operation.id) continue;
    const finding = result.findings.find((f) => f.detail === escalation.detail);
    if (!finding) continue;
    const ids = new Set([
      ...(finding.attemptIds ?? []),
      ...(finding.steps ?? []).map((s) => s.attemptId),
      ...(finding.attemptId ? [finding.attemptId] : []),
    ]);
    return result.attempts.filter((a) => ids.has(a.id));
  }
  return [];
}

function withChain(result: CheckResult, escalation: Escalation, proof: readonly Attempt[]): CheckResult {
  const own = new Set(result.attempts.map((a) => a.id));
  return {
    ...result,
    attempts: [...proof.filter((a) => !own.has(a.id)), ...result.attempts],
    findings: result.findings.map((finding) => ({
      ...finding,
      chain: [
        {
          step: 1,
          role: 'raised' as const,
          operation: escalation.operation.id,
          detail: escalation.detail,
          ...(proof.length > 0 ? { attemptIds: proof.map((a) => a.id) } : {}),
        },
        {
          step: 2,
          role: 'reached' as const,
          operation: result.operationId,
          detail: `as the raised identity ("${escalation.field}" = ${JSON.stringify(escalation.to)}): ${finding.detail ?? finding.issueId}`,
          ...(finding.attemptId ? { attemptIds: [finding.attemptId] } : {}),
        },
      ],
    })),
  };
}

/**
 * Follows the first recorded escalation that still raises the identity: raises, runs the chain checks where it was
 * refused, restores. Returns the results with the chain's findings in place of the first pass's.
 */
export async function followChains(run: ScanRun, results: CheckResult[]): Promise<CheckResult[]> {
  const { model, modelSend } = run.services;
  if (model.escalations.length === 0 || run.input.signal?.aborted) return results;
  const operations = refusedOperations(run);
  const { run: checks, reported } = chainChecks(run.input.checks);
  if (operations.length === 0 || reported.size === 0) return results;
  const log = run.input.log;
  // The first escalation that raises the identity again; one that no longer does hands over to the next.
  for (const escalation of model.escalations) {
    if (run.input.signal?.aborted) break;
    const identity = model.identity(escalation.identity);
    const raised = await modelSend(escalation.operation, escalation.raise, identity).catch(() => undefined);
    if (raised && ok(raised.status)) return followRaised(run, results, { escalation, operations, checks, reported });
    log?.warn(
      `privilege chain not followed through ${escalation.operation.id}: raising "${escalation.field}" again got ${raised?.status ?? 'no answer'}`,
    );
    // No answer or a server error may still have raised it: set it back before trying the next one.
    if (!raised || raised.status >= 500) await restoreRaised(run, escalation);
  }
  return results;
}

/** Sets the raised field back and records it for the report (and for a warning when it fails). */
async function restoreRaised(run: ScanRun, escalation: Escalation): Promise<void> {
  const { model, modelSend } = run.services;
  const identity = model.identity(escalation.identity);
  const restored = await modelSend(escalation.operation, escalation.restore, identity).catch(() => undefined);
  model.ownRestores.push({
    identity: escalation.identity,
    operation: escalation.operation.id,
    fields: [escalation.field],
    ...(restored ? { status: restored.status } : {}),
    restored: restored !== undefined && ok(restored.status),
    was: { [escalation.field]: JSON.stringify(escalation.from) },
  });
}

interface RaisedChain {
  escalation: Escalation;
  operations: Operation[];
  checks: ScannedCheck[];
  reported: Set<string>;
}

/** With the identity raised: the chain checks where it was refused, their findings chained; then the role set back. */
async function followRaised(
  run: ScanRun,
  results: CheckResult[],
  { escalation, operations, checks, reported }: RaisedChain,
): Promise<CheckResult[]> {
  const { model } = run.services;
  const identity = model.identity(escalation.identity);
  try {
    // A role carried in the token's claims needs a new token; an opaque token keeps working as the raised identity.
    await identity?.provider?.renew(`its "${escalation.field}" was raised for the privilege chain`);
    // A fresh run: its own facts and no shared baselines (the first pass's answers are the refused ones).
    const chain = createScanRun(
      { ...run.input, checks, operations, onProgress: undefined },
      { ...run.services, baselines: new Map() },
    );
    const tasks: Promise<CheckResult>[] = [];
    for (const definition of chain.ordered)
      for (const operation of chain.operationsOf(definition)) {
        const promise = runTask(chain, definition, operation);
        chain.tasks.add(definition.id, operation.id, promise);
        if (reported.has(definition.id)) tasks.push(promise);
      }
    chain.tasks.scheduled();
    const second = await Promise.all(tasks);
    const found = second.filter((r) => r.status === 'failed' && r.findings.length > 0);
    const key = (r: CheckResult): string => `${r.checkId}\u0000${r.operationId}`;
    const proof = escalationProof(results, escalation);
    const replaced = new Map(found.map((r) => [key(r), withChain(r, escalation, proof)]));
    return results.map((r) => replaced.get(key(r)) ?? r);
  } finally {
    // The report's restoredRecords says it either way; a failure is also a warning when the scan ends.
    await restoreRaised(run, escalation);
    await identity?.provider?.renew(`its "${escalation.field}" was set back after the privilege chain`);
  }
}
