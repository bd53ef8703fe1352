/**
 * Rate-limit counters behind one interface so several instances can share them (docs/architecture.md §1.8): fixed
 * windows per key. The embedded implementation keeps them in this process; a MongoDB one plugs in beside it.
 */

export interface RateLimitStore {
  /** Counts one request against `key`; `resetMs` is the time left in the current window. */
  consume(
    key: string,
    limit: number,
    windowMs: number,
  ): Promise<{ allowed: boolean; remaining: number; resetMs: number }>;
}

interface Window {
  count: number;
  resetAt: number;
}

/** Expired windows are swept when the map grows past this, so memory stays bounded without timers. */
const SWEEP_THRESHOLD = 10_000;

export function createMemoryRateLimitStore(clock: () => number = Date.now): RateLimitStore {
  const windows = new Map<string, Window>();

  function sweep(now: number): void {
    for (const [key, window] of windows) if (window.resetAt <= now) windows.delete(key);
  }

  return {
    async consume(key, limit, windowMs) {
      const now = clock();
      let window = windows.get(key);
      if (!window || window.resetAt <= now) {
        if (windows.size >= SWEEP_THRESHOLD) sweep(now);
        window = { count: 0, resetAt: now + windowMs };
        windows.set(key, window);
      }
      window.count += 1;
      return {
        allowed: window.count <= limit,
        remaining: Math.max(0, limit - window.count),
        resetMs: window.resetAt - now,
      };
    },
  };
}
