/**
 * `repeatsRequests`: a check that sends the same request many times (bursts, timing) runs on read operations only
 * (docs/architecture.md §2.6), whatever its `appliesTo` says.
 */
import { operationClass } from '../../operation-class.js';
import type { CheckResult } from '../../scan-result.js';
import type { CheckTask } from '../check-task.js';

export default function repeatsRequests(task: CheckTask): CheckResult | undefined {
  const { definition, operation } = task;
  if (!definition.repeatsRequests || operationClass(operation) === 'read') return undefined;
  return task.result('skipped', {
    reason: `repeats requests, so it runs on read operations only (${operation.id} is ${operationClass(operation)})`,
  });
}
