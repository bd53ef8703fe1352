/**
 * REG's repository contract on the mongo store with its race tests INCLUDED, on a database of its own. The shared
 * run (test/server/contract/mongo.contract.test.ts) skips the races on FerretDB, whose filtered updates are not
 * atomic; the mongo repositories hold a write lock around each conditional write (server/db/write-locks.ts), so
 * "exactly one wins" holds on FerretDB as on MongoDB, and this run proves it.
 */
import { createMongoStore } from '../../../server/store/mongo-store.js';
import { repositoryContract } from '../contract/repository-contract.js';
import { describeWithMongo, dropDatabase, uniqueDbName } from './mongo-test-db.js';

describeWithMongo('mongo store, contract races included', (uri) => {
  const dbName = uniqueDbName();
  after(async () => {
    await dropDatabase(uri, dbName);
  });

  repositoryContract('mongo (races included)', async () => {
    const store = await createMongoStore(uri, { dbName });
    await store.reset();
    return store;
  });
});
