/**
 * A check's time budget (`CheckDefinition.timeoutMs`): it expires once the check has run that long — time it spends
 * queued for a `--concurrency` slot after an idle wait (idle-without-slot.ts) is not the check's and does not count.
 */

export interface CheckDeadline {
  /** Stops the clock (nested pauses: the clock runs again after the last resume). */
  pause(): void;
  resume(): void;
  clear(): void;
}

export function createCheckDeadline(budgetMs: number, onExpire: () => void): CheckDeadline {
  let remaining = budgetMs;
  let since = Date.now();
  let paused = 0;
  let cleared = false;
  let timer: NodeJS.Timeout | undefined = setTimeout(onExpire, remaining);
  return {
    pause() {
      if (cleared || paused++ > 0) return;
      clearTimeout(timer);
      remaining -= Date.now() - since;
    },
    resume() {
      if (cleared || paused === 0 || --paused > 0) return;
      since = Date.now();
      timer = setTimeout(onExpire, Math.max(0, remaining));
    },
    clear() {
      cleared = true;
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
