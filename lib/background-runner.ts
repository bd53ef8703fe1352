/**
 * A background job run on demand and every interval, one run at a time: asking for a run while one is in progress
 * makes that run go round once more — picking up what arrived meanwhile — instead of starting a second beside it.
 * The provisioning worker and the webhook dispatcher are such jobs.
 */
export interface BackgroundRunner {
  /**
   * Runs the job now — its pass begins before this returns — or once more after the run in progress; resolves with
   * what the passes counted.
   */
  runDue(): Promise<number>;
  /** Runs it soon, without waiting; a failure goes to `onError`. */
  kick(): void;
  /** Runs it every `intervalMs` (a process waiting on nothing else may exit meanwhile). */
  start(intervalMs: number): void;
  /** No more runs; resolves once the one in progress has ended. */
  stop(): Promise<void>;
}

export function createBackgroundRunner(
  pass: () => Promise<number>,
  onError: (error: unknown) => void,
): BackgroundRunner {
  let running: Promise<number> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;

  function runDue(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let total = 0;
      try {
        do {
          again = false;
          total += await pass();
        } while (again);
      } finally {
        running = undefined;
      }
      return total;
    })();
    return running;
  }
  const kick = () => void runDue().catch(onError);

  return {
    runDue,
    kick,
    start(intervalMs) {
      if (timer) return;
      timer = setInterval(kick, intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running?.catch(() => undefined);
    },
  };
}
