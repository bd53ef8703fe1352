/**
 * MongoDB for tests: the server of MONGODB_URI (CI: FerretDB), a database of their own per test file, dropped
 * afterwards. Without MONGODB_URI the caller prints one line saying its suite did not run.
 */
import { randomBytes } from 'node:crypto';
import mongoose from 'mongoose';

export const MONGODB_URI = process.env.MONGODB_URI;

const NOT_RUN = 'MONGODB_URI is unset (CI sets it to FerretDB; locally: source .ci/ferretdb.sh; ferretdb_start)';

/**
 * A suite that cannot run: pending with its reason locally, a failure in CI (CI=true), where every mongo suite must
 * run, so a suite that silently stopped running (a missing variable, an import that failed) is never mistaken for
 * a pass (issue 12 §5).
 */
export function describeNotRun(title: string, reason: string): void {
  describe(title, () => {
    if (process.env.CI === 'true') {
      it(`runs in CI (it did not: ${reason})`, () => {
        throw new Error(`${title} did not run in CI: ${reason}`);
      });
    } else {
      it(`not run: ${reason}`);
    }
  });
}

/** Registers `suite` when MONGODB_URI is set; otherwise a pending test naming the reason (a failure in CI). */
export function describeWithMongo(title: string, suite: (uri: string) => void): void {
  if (MONGODB_URI) describe(title, () => suite(MONGODB_URI));
  else describeNotRun(title, NOT_RUN);
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
