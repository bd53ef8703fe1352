/**
 * `ctx.idle`: a check that waits for something outside its own requests (a callback to the scan's listener) gives
 * its `--concurrency` slot back for the wait, so the scan's other checks send meanwhile. It takes a slot again before
 * any task that has not started (work under way finishes first) — or not at all when the task ended during the wait
 * (timed out, the scan aborted).
 */
import type { CheckTask } from './check-task.js';

export type Idle = <T>(waiting: Promise<T>) => Promise<T>;

export function idleWithoutSlot(task: CheckTask, ended: () => boolean): Idle {
  let idling = 0;
  // Only the latest re-acquisition keeps its slot: waits that overlap and end out of order never hold two.
  let latest = 0;
  return async (waiting) => {
    if (idling++ === 0) {
      const release = task.release;
      task.release = undefined;
      release?.();
    }
    try {
      return await waiting;
    } finally {
      if (--idling === 0 && !ended()) {
        const attempt = ++latest;
        const release = await task.run.slots.acquire({ first: true });
        if (ended() || idling > 0 || attempt !== latest) release();
        else task.release = release;
      }
    }
  };
}
