/** The `db:migrate` command: exit codes, a JSON report on stdout, and nothing of the URI in its messages. */
import { expect } from 'chai';
import { createServer } from 'node:net';
import { runMigrate } from '../../../server/store/migrate-cli.js';
import { describeWithMongo, dropDatabase, uniqueDbName } from '../mongo/mongo-test-db.js';

function captureIo() {
  const out = { stdout: '', stderr: '' };
  return {
    out,
    io: { stdout: { write: (t: string) => (out.stdout += t) }, stderr: { write: (t: string) => (out.stderr += t) } },
  };
}

describe('db:migrate', () => {
  it('exits 2 and names the setting when MONGODB_URI is missing', async () => {
    const { out, io } = captureIo();
    expect(await runMigrate([], {}, io)).to.equal(2);
    expect(out.stderr).to.include('MONGODB_URI');
  });

  it('exits 1 without echoing the URI (it may hold a password) when the database is unreachable', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port: p } = server.address() as { port: number };
        server.close(() => resolve(p));
      });
    });
    const { out, io } = captureIo();
    const code = await runMigrate(
      [],
      { MONGODB_URI: `mongodb://admin:s3cret@127.0.0.1:${port}/x`, MONGODB_SERVER_SELECTION_TIMEOUT_MS: '300' },
      io,
    );
    expect(code).to.equal(1);
    expect(out.stderr).to.include('cannot reach the database');
    expect(out.stderr).to.not.include('s3cret');
  });

  it('does nothing with --if-configured when MONGODB_URI is unset (npm start on the embedded store)', async () => {
    const { out, io } = captureIo();
    expect(await runMigrate(['--if-configured'], {}, io)).to.equal(0);
    expect(out).to.deep.equal({ stdout: '', stderr: '' });
  });

  it('prints its usage with --help', async () => {
    const { out, io } = captureIo();
    expect(await runMigrate(['--help'], {}, io)).to.equal(0);
    expect(out.stdout).to.include('Usage: db:migrate');
  });
});

describeWithMongo('db:migrate against a database', (uri) => {
  const dbName = uniqueDbName();
  after(async () => {
    await dropDatabase(uri, dbName);
  });

  it('exits 0 and reports what it did as one JSON line; the second run reports nothing done', async () => {
    const env = { MONGODB_URI: uri, MONGODB_DB_NAME: dbName };
    const first = captureIo();
    expect(await runMigrate([], env, first.io)).to.equal(0);
    const report = JSON.parse(first.out.stdout) as { database: string; indexesCreated: string[] };
    expect(report.database).to.equal(dbName);
    expect(report.indexesCreated.length).to.be.greaterThan(0);
    const second = captureIo();
    expect(await runMigrate([], env, second.io)).to.equal(0);
    expect(JSON.parse(second.out.stdout))
      .to.include({ platformDocumentsChanged: 0 })
      .and.to.have.property('indexesCreated')
      .that.deep.equals([]);
  });
});
