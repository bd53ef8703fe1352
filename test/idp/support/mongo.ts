/**
 * MongoDB for the IdP tests: a fresh database per run on MONGODB_URI (FerretDB in CI), dropped afterwards.
 * Without MONGODB_URI the Mongo tests say once why they did not run.
 */
import mongoose from 'mongoose';

let told = false;

/** A unique database URL on MONGODB_URI, or undefined (after printing the one-line reason once). */
export function mongoTestUrl(label: string): string | undefined {
  const base = process.env.MONGODB_URI;
  if (!base) {
    // In CI (CI=true) every suite must run: a MongoDB test left out there is a failure, not a quiet skip.
    if (process.env.CI === 'true') throw new Error('MONGODB_URI is unset in CI: the IdP MongoDB tests would not run');
    if (!told) {
      told = true;
      console.log(
        '    [idp] MongoDB tests not run: MONGODB_URI is not set (CI sets it to FerretDB; locally see .ci/ferretdb.sh)',
      );
    }
    return undefined;
  }
  const url = new URL(base);
  url.pathname = `/idp_${label}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  return url.href;
}

export async function dropDatabase(url: string): Promise<void> {
  const connection = await mongoose.createConnection(url, { serverSelectionTimeoutMS: 5000 }).asPromise();
  try {
    await connection.dropDatabase();
  } finally {
    await connection.close();
  }
}
