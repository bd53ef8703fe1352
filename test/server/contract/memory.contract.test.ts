/** The embedded store against every repository contract. */
import { createMemoryStore } from '../../../server/store/memory-store.js';
import { runContracts } from './contracts.js';

runContracts('embedded (memory)', async () => createMemoryStore());
