/**
 * One scan's state, built once before the first task and read by every gate and check run: the checks in order, the
 * operations they run on, the per-scan services, the options, and the stores checks share (facts, exchanges, traffic,
 * baselines, scan states, shared-verdict keys, tasks).
 */
import type { CheckDefinition, Operation, ProbeResponse } from '../api.js';
import { collectOptions, secretValues, type DeclaredOption } from '../check-options.js';
import { CREDENTIAL_PROBE } from '../completeness.js';
import { topologicalOrder } from '../graph.js';
import { createSemaphore, type Semaphore } from '../semaphore.js';
import { runsIn } from '../scan-kinds.js';
import type { ScanInput } from './scan-input.js';
import { runsOnGraphqlOperation } from './gates/graphql-operations.js';
import type { ScanServices } from './scan-services.js';
import { createSharedVerdictKeys, type SharedVerdictKeys } from './shared-verdict-keys.js';
import { createDiscoveredSecrets, type DiscoveredSecrets } from './stores/discovered-secrets.js';
import { createExchangeLog, type ExchangeLog } from './stores/exchange-log.js';
import { createFactStore, type FactStore } from './stores/fact-store.js';
import { createTrafficStore, type TrafficStore } from './stores/traffic-store.js';
import { createTaskTable, type TaskTable } from './task-table.js';

const DEFAULT_CONCURRENCY = 8;

export interface ScanRun {
  readonly input: ScanInput;
  /** The checks in dependency order, ties by id: the order tasks are scheduled (and take slots) in. */
  readonly ordered: readonly CheckDefinition[];
  readonly byId: ReadonlyMap<string, CheckDefinition>;
  /** The checks that depend on `checkId`, directly or through others: they run after it, so it never waits for them. */
  dependentsOf(checkId: string): ReadonlySet<string>;
  /** Where once-per-scan checks run: the (unsharded) scan's first operation. */
  readonly firstOperation: Operation;
  /** The operations a check runs on: the first one for a once-per-scan check, else every one. */
  operationsOf(definition: CheckDefinition): readonly Operation[];
  /**
   * The operation check `checkId` runs on for the task of `operation`: the first one when it runs once per scan. Its
   * result and facts live under that operation's id.
   */
  taskOperation(checkId: string, operation: Operation): Operation;
  /**
   * Whether a check's results go in the report: it runs in this kind of scan, on this slice when once per scan, and,
   * given an operation, on that operation when it runs on GraphQL operations only (gates/graphql-operations.ts).
   */
  reports(definition: CheckDefinition, operation?: Operation): boolean;
  readonly services: ScanServices;
  /** The options the user gave, what the checks declare, and the values declared secret (redacted everywhere). */
  readonly options: {
    readonly given: Readonly<Record<string, unknown>>;
    readonly declared: readonly DeclaredOption[];
    readonly secrets: readonly string[];
  };
  /** Checks that send or judge the supplied credential: the probe and everything that depends on it, transitively. */
  readonly credentialChecks: ReadonlySet<string>;
  readonly facts: FactStore;
  readonly exchanges: ExchangeLog;
  readonly traffic: TrafficStore;
  /** One baseline answer per read operation, shared by the checks' first as-given request (fewer identical requests). */
  readonly baselines: Map<string, Promise<ProbeResponse>>;
  /** Values checks discovered that work as credentials (`ctx.redact`): redacted from every result at the end. */
  readonly discoveredSecrets: DiscoveredSecrets;
  /** A check's state across its runs in this scan (`ctx.scanState`). */
  scanStateOf(checkId: string): Map<string, unknown>;
  readonly sharedVerdictKeys: SharedVerdictKeys;
  /** `--concurrency`: the checks running at once. */
  readonly slots: Semaphore;
  readonly tasks: TaskTable;
}

/** `input.operations` are the prepared ones (scan-services.ts), which the services were opened for. */
export function createScanRun(input: ScanInput, services: ScanServices): ScanRun {
  const definitions = input.checks.map((c) => c.definition);
  const ordered = topologicalOrder(definitions);
  const byId = new Map(definitions.map((d) => [d.id, d]));
  const firstOperation = input.oncePerScan?.operation ?? input.operations[0];
  const credentialChecks = new Set<string>();
  for (const d of ordered)
    if (d.id === CREDENTIAL_PROBE || (d.dependsOn ?? []).some((dep) => credentialChecks.has(dep)))
      credentialChecks.add(d.id);
  const given = input.options ?? {};
  const declared = collectOptions(input.checks.map((c) => ({ definition: c.definition, shown: c.file })));
  // In dependency order, a check's dependencies are complete before it: each adds itself to theirs' dependents.
  const dependents = new Map(ordered.map((d) => [d.id, new Set<string>()]));
  for (const d of [...ordered].reverse())
    for (const dep of d.dependsOn ?? [])
      for (const id of [d.id, ...dependents.get(d.id)!]) dependents.get(dep)?.add(id);
  const scanStates = new Map<string, Map<string, unknown>>();
  return {
    input,
    ordered,
    byId,
    dependentsOf: (checkId) => dependents.get(checkId) ?? new Set(),
    firstOperation,
    operationsOf: (d) => (d.oncePerScan ? [firstOperation] : input.operations),
    taskOperation: (checkId, operation) => (byId.get(checkId)?.oncePerScan ? firstOperation : operation),
    reports: (d, operation) =>
      runsIn(d, input.kind) &&
      (!d.oncePerScan || input.oncePerScan?.report !== false) &&
      (!operation || runsOnGraphqlOperation(d, operation)),
    services,
    options: { given, declared, secrets: secretValues(declared, given) },
    credentialChecks,
    facts: createFactStore(),
    exchanges: createExchangeLog(),
    traffic: createTrafficStore(),
    baselines: new Map(services.baselines),
    discoveredSecrets: createDiscoveredSecrets(),
    scanStateOf(checkId) {
      const state = scanStates.get(checkId) ?? new Map<string, unknown>();
      scanStates.set(checkId, state);
      return state;
    },
    sharedVerdictKeys: createSharedVerdictKeys(),
    slots: createSemaphore(input.concurrency ?? DEFAULT_CONCURRENCY),
    tasks: createTaskTable(),
  };
}
