/**
 * Runs the organization and grant repository contract on the embedded store, and on the mongo store when
 * MONGODB_URI is set and `server/store/mongo-store.ts` exists (otherwise one line says why it did not run).
 */
import type { Store } from '../../../../server/deps.js';
import { createMemoryStore } from '../../../../server/store/memory-store.js';
import { organizationRepositoryContract } from './organization-repository.contract.js';

organizationRepositoryContract('memory', async () => createMemoryStore());

type MongoStoreModule = { createMongoStore(uri: string): Promise<Store & { reset(): Promise<void> }> };
const uri = process.env.MONGODB_URI;
// A variable specifier: the mongo store is optional until it is plugged in.
const modulePath = '../../../../server/store/mongo-store.js';
let mongo: MongoStoreModule | undefined;
let reason = 'MONGODB_URI is unset';
if (uri) {
  try {
    mongo = (await import(modulePath)) as MongoStoreModule;
  } catch {
    reason = 'there is no mongo store implementation (server/store/mongo-store.ts) yet';
  }
}
if (mongo && uri) {
  const factory = mongo;
  organizationRepositoryContract('mongo', async () => {
    const store = await factory.createMongoStore(uri);
    await store.reset();
    return store;
  });
} else {
  console.log(`  mongo organization/grant repository contract not run: ${reason}`);
}
