/**
 * `scanKinds`: a check runs only in the kinds of scan it lists; left out, in every kind but `discover` (curl,
 * openapi, graphql: scanner/scan-kinds.ts). A check that does not run here is not reported either; its dependents
 * are skipped.
 */
import { runsIn } from '../../scan-kinds.js';
import type { CheckResult } from '../../scan-result.js';
import type { CheckTask } from '../check-task.js';

export default function scanKinds(task: CheckTask): CheckResult | undefined {
  const { kind } = task.run.input;
  return runsIn(task.definition, kind)
    ? undefined
    : task.result('skipped', { reason: `does not run in ${kind} scans` });
}
