/** A counting semaphore: at most `size` holders at once, served in arrival order. */

export interface Semaphore {
  acquire(): Promise<() => void>;
}

export function createSemaphore(size: number): Semaphore {
  let free = Math.max(1, size);
  const waiting: (() => void)[] = [];
  const release = (): void => {
    const next = waiting.shift();
    if (next) next();
    else free += 1;
  };
  return {
    acquire() {
      if (free > 0) {
        free -= 1;
        return Promise.resolve(release);
      }
      return new Promise((resolvePromise) => waiting.push(() => resolvePromise(release)));
    },
  };
}
