/**
 * The mongo store against the repository contract, when there is a MongoDB-wire server (MONGODB_URI) and a mongo
 * implementation (`server/store/mongo-store.ts` exporting `createMongoStore(uri)`, with `reset()` to empty it).
 * Otherwise one line says why the suite did not run.
 */
import type { Store } from '../../../server/deps.js';
import { repositoryContract } from './repository-contract.js';

type MongoStoreModule = { createMongoStore(uri: string): Promise<Store & { reset(): Promise<void> }> };

const uri = process.env.MONGODB_URI;
// A variable specifier: the module is optional until a mongo implementation is plugged in.
const modulePath = '../../../server/store/mongo-store.js';
let mongo: MongoStoreModule | undefined;
let reason: string | undefined;
if (!uri) reason = 'MONGODB_URI is unset';
else {
  try {
    mongo = (await import(modulePath)) as MongoStoreModule;
  } catch {
    reason = 'there is no mongo store implementation (server/store/mongo-store.ts) yet';
  }
}

if (mongo && uri) {
  const factory = mongo;
  repositoryContract('mongo', async () => {
    const store = await factory.createMongoStore(uri);
    await store.reset();
    return store;
  });
} else {
  console.log(`  mongo repository contract suite not run: ${reason}`);
}
