/**
 * Runs timing probes one at a time per target origin, across every operation of a scan: a probe that slows the
 * server (a backtracking pattern blocking its event loop) must not be measured inside another one, and the scan must
 * never send two of them at once (resource.redos: it must not become the denial of service it looks for).
 */

const queues = new Map<string, Promise<unknown>>();

export async function oneAtATime<T>(origin: string, signal: AbortSignal, task: () => Promise<T>): Promise<T> {
  const previous = queues.get(origin) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  const tail = previous.then(() => mine);
  queues.set(origin, tail);
  try {
    await Promise.race([
      previous.catch(() => undefined),
      new Promise((_, reject) =>
        signal.addEventListener(
          'abort',
          () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted')),
          { once: true },
        ),
      ),
    ]);
    return await task();
  } finally {
    release();
    if (queues.get(origin) === tail) queues.delete(origin);
  }
}
