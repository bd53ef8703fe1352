/**
 * A check that sends or judges the supplied credential (auth.baseline and everything depending on it) is skipped,
 * incomplete, on an operation whose credential is empty or missing where one is declared (docs/architecture.md §2.6,
 * "incomplete is not success").
 */
import { credentialGap as gapOf } from '../../completeness.js';
import type { CheckResult } from '../../scan-result.js';
import type { CheckTask } from '../check-task.js';

export default function credentialGap(task: CheckTask): CheckResult | undefined {
  const gap = task.run.credentialChecks.has(task.definition.id) ? gapOf(task.operation) : undefined;
  return gap ? task.result('skipped', { reason: gap, incomplete: true }) : undefined;
}
