/** The embedded in-process store (the default when MONGODB_URI is unset): every repository of the list in memory. */
import type { Store } from '../deps.js';
import { buildRepositories } from './repositories.js';

export function createMemoryStore(options: { clock?: () => Date } = {}): Store {
  const clock = options.clock ?? (() => new Date());
  return {
    kind: 'memory',
    ...buildRepositories((definition) => definition.memory({ clock })),
    // Nothing to reach: the memory store is ready as long as the process runs.
    ping: async () => undefined,
    close: async () => undefined,
  };
}
