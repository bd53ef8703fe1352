/**
 * `scanKinds`: a check runs only in the kinds of scan it lists; left out, in every kind but `discover` (curl,
 * openapi, graphql). A check that does not run here is not reported either; its dependents are skipped.
 */
import type { CheckDefinition } from '../../api.js';
import type { CheckResult, ScanKind } from '../../scan-result.js';
import type { CheckTask } from '../check-task.js';

const DEFAULT_SCAN_KINDS: readonly ScanKind[] = ['curl', 'openapi', 'graphql'];

export function runsIn(definition: CheckDefinition, kind: ScanKind): boolean {
  return (definition.scanKinds ?? DEFAULT_SCAN_KINDS).includes(kind);
}

export default function scanKinds(task: CheckTask): CheckResult | undefined {
  const { kind } = task.run.input;
  return runsIn(task.definition, kind)
    ? undefined
    : task.result('skipped', { reason: `does not run in ${kind} scans` });
}
