/**
 * No unmigrated start: the service refuses a database `db:migrate` has not brought to this
 * build's schema version, naming the command; MIGRATE_ON_START migrates first; /readyz reports the check.
 */
import { expect } from 'chai';
import { connectMongo } from '../../../server/db/connect.js';
import { migrate } from '../../../server/store/migrate.js';
import { readSchemaState, SCHEMA_COLLECTION, SCHEMA_VERSION } from '../../../server/store/schema-version.js';
import { main, type MainIo } from '../../../server/main.js';
import { startTestAuth, type TestAuth } from '../../support/test-auth.js';
import { describeWithMongo, dropDatabase, uniqueDbName } from '../mongo/mongo-test-db.js';

interface Readiness {
  status: number;
  body: { checks: { schema: { status: string; version?: number } } };
}

function capture(): MainIo & { err: () => string } {
  let err = '';
  return { stdout: { write: () => true }, stderr: { write: (t: string) => (err += t) }, err: () => err };
}

/** MONGODB_URI with another database name in its path. */
function withDb(uri: string, dbName: string): string {
  const url = new URL(uri);
  url.pathname = `/${dbName}`;
  return url.toString();
}

describeWithMongo('the schema version check at start', (uri) => {
  let auth: TestAuth;
  const dbNames: string[] = [];
  before(async () => {
    auth = await startTestAuth();
  });
  after(async () => {
    await auth.close();
    for (const name of dbNames) await dropDatabase(uri, name);
  });

  function freshDb(): string {
    const name = uniqueDbName();
    dbNames.push(name);
    return name;
  }

  /** Runs main until it listens (then asks /readyz and stops it) or exits; the exit code and the readiness body. */
  async function start(env: Record<string, string>): Promise<{ code: number; err: string; ready?: Readiness }> {
    const io = capture();
    const stop = new AbortController();
    let ready: Readiness | undefined;
    const code = await main([], auth.env({ PORT: '0', INTERNAL_PORT: '0', LOG_LEVEL: 'silent', ...env }), io, {
      signal: stop.signal,
      onListening: (url) => {
        void fetch(`${url}/readyz`)
          .then(async (res) => (ready = { status: res.status, body: (await res.json()) as Readiness['body'] }))
          .finally(() => stop.abort());
      },
    });
    return { code, err: io.err(), ready };
  }

  it('refuses to start on a database that was never migrated, naming npm run db:migrate', async () => {
    let listened = false;
    const io = capture();
    const code = await main(
      [],
      auth.env({ PORT: '0', INTERNAL_PORT: '0', LOG_LEVEL: 'silent', MONGODB_URI: withDb(uri, freshDb()) }),
      io,
      {
        onListening: () => (listened = true),
      },
    );
    expect(code).to.equal(1);
    expect(listened).to.equal(false);
    expect(io.err()).to.contain('npm run db:migrate');
    expect(io.err()).to.contain('not been migrated');
  });

  it('refuses a database migrated by an older build', async () => {
    const dbName = freshDb();
    const connection = await connectMongo(uri, { dbName });
    try {
      await migrate(connection);
      await connection
        .db!.collection<{ _id: string }>(SCHEMA_COLLECTION)
        .updateOne({ _id: 'store' }, { $set: { version: SCHEMA_VERSION - 1 } });
      expect((await readSchemaState(connection)).status).to.equal('older');
    } finally {
      await connection.close();
    }
    const { code, err } = await start({ MONGODB_URI: withDb(uri, dbName) });
    expect(code).to.equal(1);
    expect(err).to.contain(`found version ${SCHEMA_VERSION - 1}, need ${SCHEMA_VERSION}`);
    expect(err).to.contain('npm run db:migrate');
  });

  it('migrates first with MIGRATE_ON_START=true, then serves and reports the schema check in /readyz', async () => {
    const { code, ready } = await start({ MONGODB_URI: withDb(uri, freshDb()), MIGRATE_ON_START: 'true' });
    expect(code).to.equal(0);
    expect(ready?.status).to.equal(200);
    expect(ready?.body.checks.schema).to.deep.equal({ status: 'ok', version: SCHEMA_VERSION });
  });

  it('serves a database db:migrate has brought up to date', async () => {
    const dbName = freshDb();
    const connection = await connectMongo(uri, { dbName });
    try {
      await migrate(connection);
      expect((await migrate(connection)).schemaVersionRecorded).to.equal(false);
    } finally {
      await connection.close();
    }
    const { code, ready } = await start({ MONGODB_URI: withDb(uri, dbName) });
    expect(code).to.equal(0);
    expect(ready?.body.checks.schema.status).to.equal('ok');
  });
});
