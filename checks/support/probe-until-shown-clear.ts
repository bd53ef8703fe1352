/**
 * Once-per-key probing for what a whole path or origin answers alike (TRACE/TRACK per path, method overrides per
 * origin): operations sharing a key wait for the first one's probe; once a probe showed the key clear, the others pass
 * without sending anything. Any other outcome lets each operation probe for itself, so findings and statuses never
 * depend on which operation came first (shards, concurrency).
 */
import type { CheckContext } from '../../scanner/api.js';

/**
 * Runs `probe` (true when it showed the key clear) unless an earlier operation of this check already showed `key`
 * clear; returns the id of that operation when it did, else undefined.
 */
export async function probeUntilShownClear(
  ctx: Pick<CheckContext, 'scanState' | 'operation'>,
  key: string,
  probe: () => Promise<boolean>,
): Promise<string | undefined> {
  const earlier = ctx.scanState.get(key) as Promise<string | undefined> | undefined;
  if (earlier) {
    const clearOn = await earlier;
    if (clearOn) return clearOn;
  }
  let settle: ((clearOn: string | undefined) => void) | undefined;
  if (!earlier) ctx.scanState.set(key, new Promise<string | undefined>((resolve) => (settle = resolve)));
  let clear = false;
  try {
    clear = await probe();
  } finally {
    settle?.(clear ? ctx.operation.id : undefined);
  }
  return undefined;
}
