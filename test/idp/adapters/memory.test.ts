import { createMemoryStore } from '../../../idp/adapters/memory.js';
import type { IdpStore } from '../../../idp/adapters/store.js';
import { adapterContract } from './adapter-contract.js';

describe('idp: memory store', () => {
  let store: IdpStore;
  before(() => {
    store = createMemoryStore();
  });
  after(() => store.close());
  adapterContract(() => store);
});
