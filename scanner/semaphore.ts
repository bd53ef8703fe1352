/** A counting semaphore: at most `size` holders at once, served in arrival order (`first`: ahead of the others). */

export interface Semaphore {
  /**
   * Resolves to this holder's release (a second call does nothing). `first`: served before every holder-to-be
   * already waiting — work under way that resumes goes before work not yet started.
   */
  acquire(options?: { first?: boolean }): Promise<() => void>;
}

export function createSemaphore(size: number): Semaphore {
  let free = Math.max(1, size);
  const waiting: (() => void)[] = [];
  const releaser = (): (() => void) => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = waiting.shift();
      if (next) next();
      else free += 1;
    };
  };
  return {
    acquire(options = {}) {
      if (free > 0) {
        free -= 1;
        return Promise.resolve(releaser());
      }
      return new Promise((resolvePromise) => {
        const grant = (): void => resolvePromise(releaser());
        if (options.first) waiting.unshift(grant);
        else waiting.push(grant);
      });
    },
  };
}
