/**
 * `--shard <i>/<n>`: the i-th of n deterministic slices of the operations (by id, round-robin), so a CI matrix can
 * spread one large scan over n machines; `scanner report merge` joins the slices' reports.
 */
import type { Operation } from './api.js';
import { scannerError } from './errors.js';

export interface Shard {
  index: number;
  count: number;
}

/** `2/4` → the second of four slices; a problem completes the flag's name (`--shard must be …`). */
export function parseShard(value: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(value.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count)
    throw scannerError('invalid_argument', 'must be <i>/<n> with 1 ≤ i ≤ n, e.g. 2/4');
  return { index, count };
}

export function shardOperations(operations: Operation[], shard: Shard): Operation[] {
  const sorted = [...operations].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return sorted.filter((_, position) => position % shard.count === shard.index - 1);
}
