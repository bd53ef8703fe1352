/**
 * The mongo store against every repository contract, on the server of MONGODB_URI (CI: FerretDB), in a database
 * of its own. The store is imported statically, so a broken mongo store fails the run instead of skipping it;
 * without MONGODB_URI one line says the suite did not run, and in CI (CI=true) that is a failure.
 */
import { createMongoStore } from '../../../server/store/mongo-store.js';
import { dropDatabase, uniqueDbName } from '../mongo/mongo-test-db.js';
import { runContracts } from './contracts.js';

const uri = process.env.MONGODB_URI;

if (uri) {
  const dbName = uniqueDbName();
  describe('repository contracts on MongoDB', () => {
    after(() => dropDatabase(uri, dbName));
    runContracts('mongo', async () => {
      const store = await createMongoStore(uri, { dbName });
      await store.reset();
      return store;
    });
  });
} else if (process.env.CI === 'true') {
  describe('repository contracts on MongoDB', () => {
    it('run in CI', () => {
      throw new Error('MONGODB_URI is unset in CI: the mongo repository contracts would silently not run');
    });
  });
} else {
  console.log('  mongo repository contract suite not run: MONGODB_URI is unset (locally: source .ci/ferretdb.sh; ferretdb_start)');
}
