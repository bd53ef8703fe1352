/** The embedded in-process store (the default when MONGODB_URI is unset): every repository of the list in memory. */
import type { Store } from '../deps.js';
import { buildRepositories } from './repositories.js';
import { directResolutionReads } from './resolution-cache.js';

export function createMemoryStore(options: { clock?: () => Date } = {}): Store {
  const clock = options.clock ?? (() => new Date());
  const repositories = buildRepositories((definition) => definition.memory({ clock }));
  return {
    kind: 'memory',
    ...repositories,
    // In-process reads cost no round trip: nothing to cache, so nothing is ever stale.
    resolution: directResolutionReads(repositories),
    // Nothing to reach: the memory store is ready as long as the process runs.
    ping: async () => undefined,
    close: async () => undefined,
  };
}
