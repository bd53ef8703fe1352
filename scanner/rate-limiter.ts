/** Per-host request pacing: at most `count` requests per `perMs`, spread evenly (burst 1), one queue per host. */

export interface Rate {
  count: number;
  perMs: number;
}

export const DEFAULT_RATE: Rate = { count: 50, perMs: 1000 };

export interface RateLimiter {
  /** Resolves when a request to `host` may be sent. */
  acquire(host: string, signal?: AbortSignal): Promise<void>;
}

export function createRateLimiter(rate: Rate = DEFAULT_RATE): RateLimiter {
  const spacingMs = rate.perMs / rate.count;
  const nextSlot = new Map<string, number>();
  return {
    acquire(host, signal) {
      const now = Date.now();
      const slot = Math.max(now, nextSlot.get(host) ?? now);
      nextSlot.set(host, slot + spacingMs);
      const wait = slot - now;
      if (wait <= 0) return Promise.resolve();
      return new Promise<void>((resolvePromise, reject) => {
        const timer = setTimeout(() => {
          signal?.removeEventListener('abort', onAbort);
          resolvePromise();
        }, wait);
        const onAbort = (): void => {
          clearTimeout(timer);
          reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
        };
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
  };
}

/** Parses `--rate` values: `50/s`, `600/m`, `1000/h`; a bare number means per second. */
export function parseRate(value: string): Rate | undefined {
  const match = /^(\d+(?:\.\d+)?)(?:\/(s|m|h))?$/.exec(value.trim());
  if (!match) return undefined;
  const count = Number(match[1]);
  if (!(count > 0)) return undefined;
  const perMs = { s: 1000, m: 60_000, h: 3_600_000 }[(match[2] ?? 's') as 's' | 'm' | 'h'];
  return { count, perMs };
}

/** `{ count: 50, perMs: 1000 }` → `50/s`: a rate as `--rate` takes it. */
export function formatRate(rate: Rate): string {
  const unit = ({ 1000: 's', 60_000: 'm', 3_600_000: 'h' } as Record<number, string>)[rate.perMs];
  return unit ? `${rate.count}/${unit}` : `${(rate.count * 1000) / rate.perMs}/s`;
}
