/**
 * MongoDB for tests: the server of MONGODB_URI (CI: FerretDB), a database of their own per test file, dropped
 * afterwards. Without MONGODB_URI the caller prints one line saying its suite did not run.
 */
import { randomBytes } from 'node:crypto';
import mongoose from 'mongoose';
import { createMongoStore, type MongoStore } from '../../../server/store/mongo-store.js';
import { suiteNotRun } from '../../support/outside-npm.js';

export const MONGODB_URI = process.env.MONGODB_URI;

const NOT_RUN = 'MONGODB_URI is unset (CI sets it to FerretDB; locally: source .ci/ferretdb.sh; ferretdb_start)';

/** Registers `suite` when MONGODB_URI is set; otherwise a pending test naming the reason (a failure in CI). */
export function describeWithMongo(title: string, suite: (uri: string) => void): void {
  if (MONGODB_URI) describe(title, () => suite(MONGODB_URI));
  else suiteNotRun(title, NOT_RUN);
}

/** A fresh database name for one test file, e.g. `gh_test_3f9a…`. */
export function uniqueDbName(): string {
  return `gh_test_${randomBytes(6).toString('hex')}`;
}

export async function dropDatabase(uri: string, dbName: string): Promise<void> {
  const connection = await mongoose.createConnection(uri, { dbName, serverSelectionTimeoutMS: 5000 }).asPromise();
  try {
    await connection.dropDatabase();
  } finally {
    await connection.close();
  }
}

/** A mongo store on `dbName`, emptied: what every mongo suite starts from. */
export async function freshMongoStore(uri: string, dbName: string): Promise<MongoStore> {
  const store = await createMongoStore(uri, { dbName });
  await store.reset();
  return store;
}

/**
 * The suite's own fresh store on a database of its own (`opened` gets it before the first test), closed and dropped
 * after the last.
 */
export function suiteMongoStore(uri: string, opened: (store: MongoStore) => void): void {
  const dbName = uniqueDbName();
  let store: MongoStore | undefined;
  before(async () => opened((store = await freshMongoStore(uri, dbName))));
  after(async () => {
    await store?.close();
    await dropDatabase(uri, dbName);
  });
}
