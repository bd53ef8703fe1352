/**
 * The mongo store against the repository contract, when there is a MongoDB-wire server (MONGODB_URI). The store is
 * imported by its real path, so a broken import fails the run instead of passing as "not run" (issue 12 §5);
 * without MONGODB_URI the suite is pending with the reason (a failure in CI, where it must run).
 */
import { createMongoStore } from '../../../server/store/mongo-store.js';
import { describeWithMongo } from '../mongo/mongo-test-db.js';
import { repositoryContract } from './repository-contract.js';

describeWithMongo('the mongo repository contract', (uri) => {
  repositoryContract('mongo', async () => {
    const store = await createMongoStore(uri);
    await store.reset();
    return store;
  });
});
