/** The embedded store against the repository contract. */
import { createMemoryStore } from '../../../server/store/memory-store.js';
import { repositoryContract } from './repository-contract.js';

repositoryContract('embedded (memory)', async () => createMemoryStore());
