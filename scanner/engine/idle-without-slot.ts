/**
 * `ctx.idle`: a check that waits for something outside its own requests (a callback to the scan's listener) gives
 * its `--concurrency` slot back for the wait, so the scan's other checks send meanwhile. It takes a slot again before
 * any task that has not started (work under way finishes first) — or not at all when the task ended during the wait
 * (timed out, the scan aborted). The time it queues for that slot is not counted against its `timeoutMs`.
 */
import type { CheckDeadline } from './check-deadline.js';
import type { CheckTask } from './check-task.js';

export type Idle = <T>(waiting: Promise<T>) => Promise<T>;

/** `deadline` stops while the task queues for its slot again: that wait is the other checks' time, not its own. */
export function idleWithoutSlot(task: CheckTask, ended: () => boolean, deadline: CheckDeadline): Idle {
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
        deadline.pause();
        const release = await task.run.slots.acquire({ first: true }).finally(() => deadline.resume());
        if (ended() || idling > 0 || attempt !== latest) release();
        else task.release = release;
      }
    }
  };
}
