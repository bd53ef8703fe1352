/**
 * Every task of the scan by (check, operation), for the gates that wait on other tasks (a dependency's result, the
 * checks a runsLast or passive check comes after, a shared verdict's representative).
 */
import type { CheckResult } from '../scan-result.js';

export interface TaskTable {
  add(checkId: string, operationId: string, task: Promise<CheckResult>): void;
  of(checkId: string, operationId: string): Promise<CheckResult> | undefined;
  /** Resolves once every task is in the table: a wait that looks the table over must await it first. */
  readonly allScheduled: Promise<void>;
  /** Called by the scheduler after the last `add`. */
  scheduled(): void;
}

export function createTaskTable(): TaskTable {
  const tasks = new Map<string, Promise<CheckResult>>();
  const key = (checkId: string, operationId: string): string => `${checkId}\u0000${operationId}`;
  let scheduled!: () => void;
  const allScheduled = new Promise<void>((resolve) => (scheduled = resolve));
  return {
    add: (checkId, operationId, task) => void tasks.set(key(checkId, operationId), task),
    of: (checkId, operationId) => tasks.get(key(checkId, operationId)),
    allScheduled,
    scheduled,
  };
}
