/**
 * The mongo store against the repository contract, when there is a MongoDB-wire server (MONGODB_URI) and a mongo
 * implementation (`server/store/mongo-store.ts` exporting `createMongoStore(uri)`, with `reset()` to empty it).
 * Otherwise one line says why the suite did not run.
 */
import mongoose from 'mongoose';
import type { Store } from '../../../server/deps.js';
import { repositoryContract, type ContractOptions } from './repository-contract.js';

/** FerretDB answers buildInfo like MongoDB but names itself; its findAndModify is not atomic under concurrency. */
async function backendOptions(mongoUri: string): Promise<ContractOptions> {
  const connection = await mongoose.createConnection(mongoUri, { serverSelectionTimeoutMS: 5000 }).asPromise();
  try {
    const info = await connection.db!.admin().command({ buildInfo: 1 });
    return JSON.stringify(info).toLowerCase().includes('ferretdb')
      ? { nonAtomicBecause: 'FerretDB runs conditional findAndModify/update as read-then-write, so two racing writers can both match' }
      : {};
  } finally {
    await connection.close();
  }
}

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
  const options = await backendOptions(uri);
  repositoryContract(
    'mongo',
    async () => {
      const store = await factory.createMongoStore(uri);
      await store.reset();
      return store;
    },
    options,
  );
} else {
  console.log(`  mongo repository contract suite not run: ${reason}`);
}
