/**
 * The mongo store against every repository contract, on the server of MONGODB_URI (CI: FerretDB), in a database
 * of its own. The store is imported by its real path, so a broken mongo store fails the run instead of passing as
 * "not run"; without MONGODB_URI the suite is pending with the reason (a failure in CI, where it must run).
 */
import { describeWithMongo, dropDatabase, freshMongoStore, uniqueDbName } from '../mongo/mongo-test-db.js';
import { runContracts } from './contracts.js';

describeWithMongo('repository contracts on MongoDB', (uri) => {
  const dbName = uniqueDbName();
  after(() => dropDatabase(uri, dbName));
  runContracts('mongo', () => freshMongoStore(uri, dbName));
});
