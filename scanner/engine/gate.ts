/** A scheduling rule of the runner (listed in gates.ts): a result ends the task there, nothing lets it through. */
import type { CheckResult } from '../scan-result.js';
import type { CheckTask } from './check-task.js';

/**
 * Answers at once when it decides without waiting; returns a promise only when it waits (for other tasks, a slot), so
 * tasks that wait for nothing reach the slot queue in the order they were scheduled.
 */
export type Gate = (task: CheckTask) => CheckResult | undefined | Promise<CheckResult | undefined>;
