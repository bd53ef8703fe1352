/**
 * Readiness that tells the truth (issue 26): `/readyz` on both listeners checks the authorization server — JWTs
 * verifiable (a usable key cached, or the JWKS fetchable), opaque tokens introspectable — and the store; a failure
 * keeps its cause in the log (code and address, not `{}`). A database down at start: the service starts, answers
 * 503 with the reason, and is ready once the database answers; REQUIRE_DATABASE_AT_START=true exits naming the
 * host and the cause instead.
 */
import { createServer } from 'node:net';
import { expect } from 'chai';
import { main, type MainIo } from '../../../server/main.js';
import { createMemoryStore } from '../../../server/store/memory-store.js';
import type { Store } from '../../../server/deps.js';
import { startTestAuth, type TestAuth } from '../../support/test-auth.js';
import { notRunHere } from '../../support/outside-npm.js';
import { startFakeAuthorizationServer, type FakeAuthorizationServer } from '../middleware/fake-authorization-server.js';
import { createFerretDb, ferretdbAvailable, FERRETDB_BIN } from '../mongo/ferretdb-process.js';
import { uniqueDbName } from '../mongo/mongo-test-db.js';
import { startSurfaces, type Surfaces } from './surfaces.js';

/** Longer than a listener reuses its last look at the authorization server (authorization-server.ts). */
const PAST_REUSE_MS = 2100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** `/readyz` of both listeners: statuses and the authorizationServer check. */
async function readiness(s: Surfaces) {
  const answers = await Promise.all([s.public.get('/readyz'), s.internal.get('/readyz')]);
  return answers.map((res) => ({
    status: res.status,
    authorizationServer: (res.body as { checks: Record<string, { status: string }> }).checks.authorizationServer,
  }));
}

describe('readiness: the authorization server', function () {
  this.timeout(20_000);
  let auth: TestAuth;
  let as: FakeAuthorizationServer;
  before(async () => {
    auth = await startTestAuth();
    as = await startFakeAuthorizationServer(auth.jwksUri);
  });
  after(async () => {
    await as.close();
    await auth.close();
  });

  it('with JWTs: not ready while the JWKS cannot be fetched and no key is cached, ready again when it can', async () => {
    const s = await startSurfaces({ ...auth.env(), API_AUTH_AUDIENCE: auth.audience });
    try {
      auth.setJwksDown(true);
      const down = await readiness(s);
      expect(down.map((r) => r.status)).to.deep.equal([503, 503]);
      expect(down[0].authorizationServer).to.deep.include({ status: 'error' });
      expect(s.lines().some((line) => String(line.msg).startsWith('readiness check failed: authorization server'))).to
        .be.true;

      auth.setJwksDown(false);
      await sleep(PAST_REUSE_MS);
      const up = await readiness(s);
      expect(up.map((r) => r.status)).to.deep.equal([200, 200]);
      expect(up[0].authorizationServer).to.deep.equal({ status: 'ok', keys: 'fetched' });

      // A key in use stays usable while the JWKS is down: tokens keep being verified, so the instance is ready.
      const token = await auth.token();
      expect((await s.public.get('/api/v1/organizations').set('Authorization', `Bearer ${token}`)).status).to.equal(
        200,
      );
      auth.setJwksDown(true);
      await sleep(PAST_REUSE_MS);
      const cached = await readiness(s);
      expect(cached[0]).to.deep.equal({ status: 200, authorizationServer: { status: 'ok', keys: 'cached' } });
    } finally {
      auth.setJwksDown(false);
      await s.close();
    }
  });

  it('with opaque tokens: not ready while introspection does not answer, ready again when it does', async () => {
    const s = await startSurfaces({
      ...auth.env(),
      API_AUTH_TOKEN_TYPES: 'opaque',
      API_AUTH_INTROSPECTION_URL: as.introspectionUrl,
      API_AUTH_CLIENT_ID: 'gatehouse-api',
      API_AUTH_CLIENT_SECRET: 'secret',
    });
    try {
      as.answer = () => ({ kind: 'json', status: 503, body: { error: 'temporarily_unavailable' } });
      expect((await readiness(s)).map((r) => r.status)).to.deep.equal([503, 503]);
      as.answer = () => ({ kind: 'json', body: { active: false } });
      await sleep(PAST_REUSE_MS);
      const up = await readiness(s);
      expect(up.map((r) => r.status)).to.deep.equal([200, 200]);
      expect(up[0].authorizationServer).to.deep.equal({ status: 'ok', introspection: 'reachable' });
    } finally {
      await s.close();
    }
  });

  it('logs why with the cause kept: the connection error code and the address it tried', async () => {
    const port = await closedPort();
    const s = await startSurfaces({ ...auth.env(), API_AUTH_JWKS_URI: `http://127.0.0.1:${port}/jwks` });
    try {
      expect((await s.public.get('/readyz')).status).to.equal(503);
      const line = s.lines().find((l) => String(l.msg).startsWith('readiness check failed: authorization server'));
      const cause = JSON.stringify(line?.cause);
      expect(cause).to.include('ECONNREFUSED');
      expect(cause).to.include(String(port));
    } finally {
      await s.close();
    }
  });
});

describe('readiness: the store', () => {
  it("answers 503 naming the store, and logs the ping's cause with its code", async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.9:27017'), {
      code: 'ECONNREFUSED',
      address: '10.0.0.9',
      port: 27017,
    });
    const store: Store = {
      ...createMemoryStore(),
      ping: () => Promise.reject(new Error('ping failed', { cause: refused })),
    };
    const auth = await startTestAuth();
    const s = await startSurfaces({ ...auth.env() }, { store });
    try {
      const res = await s.public.get('/readyz');
      expect(res.status).to.equal(503);
      expect(res.body.checks.store).to.deep.equal({ status: 'error', error: 'the store did not answer its ping' });
      const line = s.lines().find((l) => l.msg === 'readiness check failed: store');
      expect(line?.cause).to.deep.include({
        name: 'Error',
        message: 'connect ECONNREFUSED 10.0.0.9:27017',
        code: 'ECONNREFUSED',
        address: '10.0.0.9',
        port: 27017,
      });
    } finally {
      await s.close();
      await auth.close();
    }
  });
});

function capture(): MainIo & { err: () => string } {
  let err = '';
  return { stdout: { write: () => true }, stderr: { write: (t: string) => (err += t) }, err: () => err };
}

describe('a database down at start', function () {
  if (!ferretdbAvailable()) {
    notRunHere(`no FerretDB binary at ${FERRETDB_BIN} (to enable: source .ci/ferretdb.sh && ferretdb_build)`);
    return;
  }
  this.timeout(60_000);
  let auth: TestAuth;
  before(async () => {
    auth = await startTestAuth();
  });
  after(() => auth.close());

  it('starts the service not ready with the reason, and it becomes ready once the database answers', async () => {
    const db = await createFerretDb(uniqueDbName());
    await db.stop();
    const stop = new AbortController();
    let urls: [string, string] | undefined;
    const io = capture();
    const running = main(
      [],
      auth.env({ MONGODB_URI: db.uri, MIGRATE_ON_START: 'true', PORT: '0', INTERNAL_PORT: '0' }),
      io,
      { signal: stop.signal, onListening: (url, internalUrl) => (urls = [url, internalUrl]) },
    );
    try {
      for (let i = 0; i < 100 && !urls; i += 1) await sleep(50);
      expect(urls, io.err()).to.not.equal(undefined);
      const notReady = await fetch(`${urls![0]}/readyz`);
      expect(notReady.status).to.equal(503);
      const body = (await notReady.json()) as { checks: { store: { error: string } } };
      expect(body.checks.store.error).to.include('has not answered since the service started');
      const token = await auth.token();
      const api = await fetch(`${urls![0]}/api/v1/organizations`, { headers: { authorization: `Bearer ${token}` } });
      expect(api.status).to.equal(503);

      await db.start();
      let status = 0;
      for (let i = 0; i < 100 && status !== 200; i += 1) {
        await sleep(200);
        status = (await fetch(`${urls![0]}/readyz`)).status;
      }
      expect(status).to.equal(200);
      expect(
        (await fetch(`${urls![0]}/api/v1/organizations`, { headers: { authorization: `Bearer ${token}` } })).status,
      ).to.equal(200);
    } finally {
      stop.abort();
      expect(await running).to.equal(0);
      await db.dispose();
    }
  });

  it('with REQUIRE_DATABASE_AT_START=true exits 1 naming the host and the cause', async () => {
    const port = await closedPort();
    const io = capture();
    const code = await main(
      [],
      auth.env({
        MONGODB_URI: `mongodb://operator:s3cret@127.0.0.1:${port}/gatehouse`,
        REQUIRE_DATABASE_AT_START: 'true',
        PORT: '0',
        INTERNAL_PORT: '0',
      }),
      io,
    );
    expect(code).to.equal(1);
    expect(io.err()).to.include(`cannot connect to MongoDB at 127.0.0.1:${port} (MONGODB_URI)`);
    expect(io.err()).to.include('ECONNREFUSED');
    expect(io.err()).to.not.include('s3cret');
  });
});
