/** Keyset pagination over (createdAt, id) ascending: the order every list of the service uses (docs/architecture.md §R.3). */

export interface PageKey {
  createdAt: Date;
  id: string;
}

export interface PageQuery {
  limit: number;
  /** Return only items strictly after this key. */
  after?: PageKey;
}

export function compareKeys(a: PageKey, b: PageKey): number {
  const byTime = a.createdAt.getTime() - b.createdAt.getTime();
  if (byTime !== 0) return byTime;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Sorts, skips up to `after`, and takes `limit` items (memory repositories). */
export function pageOf<T extends PageKey>(items: Iterable<T>, query: PageQuery): T[] {
  const sorted = [...items].sort(compareKeys);
  const start = query.after ? sorted.filter((item) => compareKeys(item, query.after as PageKey) > 0) : sorted;
  return start.slice(0, query.limit);
}
