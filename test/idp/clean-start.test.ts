import { expect } from 'chai';
import { connect, createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { run } from '../../idp/cli.js';
import { createIdp } from '../../idp/create-idp.js';
import { generateSigningJwks } from '../../idp/keys.js';
import { dropDatabase, mongoTestUrl } from './support/mongo.js';
import { startTcpProxy } from './support/tcp-proxy.js';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Connects to `port` again and again until it opens, then at once sends a discovery request; resolves to the
 * status line, or to "no answer" when nothing came back within `waitMs` (the start-up race of issue 17).
 */
function probeAsSoonAsOpen(port: number, waitMs: number): Promise<string> {
  return new Promise((resolve) => {
    const attempt = () => {
      const socket = connect(port, '127.0.0.1');
      socket.once('error', () => setImmediate(attempt));
      socket.once('connect', () => {
        let data = '';
        const timer = setTimeout(() => {
          socket.destroy();
          resolve('no answer');
        }, waitMs);
        socket.on('data', (chunk) => {
          data += chunk.toString('latin1');
          if (data.includes('\r\n')) {
            clearTimeout(timer);
            socket.destroy();
            resolve(data.split('\r\n')[0]);
          }
        });
        socket.write(
          `GET /.well-known/openid-configuration HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`,
        );
      });
    };
    attempt();
  });
}

describe('idp: clean start', function () {
  this.timeout(120000);

  it('answers a request fired the moment the port opens, in 50 starts in a row', async () => {
    const answers: string[] = [];
    const jwks = await generateSigningJwks(); // key generation is not what is measured here
    for (let i = 0; i < 50; i += 1) {
      const port = await freePort();
      const probe = probeAsSoonAsOpen(port, 10000);
      const idp = await createIdp({ port, jwks });
      answers.push(await probe);
      await idp.close();
    }
    expect(answers.filter((a) => a !== 'HTTP/1.1 200 OK')).to.deep.equal([]);
  });

  it('with port 0 and no issuer, answers the first request with the provider built for the bound port', async () => {
    const idp = await createIdp({ port: 0 });
    try {
      const res = await request(idp.url).get('/.well-known/openid-configuration').expect(200);
      expect(res.body.issuer).to.equal(idp.url);
    } finally {
      await idp.close();
    }
  });

  describe('with the database unreachable at start', () => {
    const nowhere = async () => `mongodb://127.0.0.1:${await freePort()}/idp_nowhere`;

    it('starts anyway: /healthz 200, /readyz 503 naming checks.db.error, OIDC endpoints 503 temporarily_unavailable', async () => {
      const idp = await createIdp({ port: 0, databaseUrl: await nowhere() });
      try {
        await request(idp.url).get('/healthz').expect(200, { status: 'ok' });
        const ready = await request(idp.url).get('/readyz').expect(503);
        expect(ready.body.status).to.equal('error');
        expect(ready.body.checks.db.status).to.equal('error');
        expect(ready.body.checks.db.error).to.be.a('string').and.not.equal('');
        expect(ready.body.checks.oidc).to.deep.equal({ status: 'error', error: 'waiting for the database' });
        const discovery = await request(idp.url).get('/.well-known/openid-configuration').expect(503);
        expect(discovery.body).to.include({ error: 'temporarily_unavailable' });
        expect(() => idp.client).to.throw('waiting for its database');
      } finally {
        await idp.close();
      }
    });

    it('with requireDatabaseAtStart, refuses to start and says why', async () => {
      let failure: unknown;
      await createIdp({ port: 0, databaseUrl: await nowhere(), requireDatabaseAtStart: true }).catch(
        (e) => (failure = e),
      );
      expect((failure as Error).message).to.match(/^cannot use the database: /);
    });

    it('the CLI starts and prints that it waits for the database; with --require-database-at-start it exits 1 with one line', async () => {
      let out = '';
      let err = '';
      const controller = new AbortController();
      const listening = new Promise<void>((resolve) => {
        void nowhere().then((url) =>
          run(['--port', '0', '--database-url', url, '--log-level', 'silent'], {
            stdout: { write: (s: string) => (out += s) },
            stderr: { write: (s: string) => (err += s) },
            env: {},
            signal: controller.signal,
            onListening: () => resolve(),
          }),
        );
      });
      await listening;
      controller.abort();
      expect(out).to.contain('waiting for the database');
      let failErr = '';
      const code = await run(['--port', '0', '--database-url', await nowhere(), '--require-database-at-start'], {
        stdout: { write: () => true },
        stderr: { write: (s: string) => (failErr += s) },
        env: {},
      });
      expect(code).to.equal(1);
      expect(failErr.trim().split('\n')).to.have.length(1);
      expect(failErr).to.match(/^idp: cannot use the database: /);
      expect(err).to.not.contain('Error:');
    });

    describe('then the database appears', function () {
      const url = mongoTestUrl('late');
      before(function () {
        if (!url) this.skip(); // reason printed once by mongoTestUrl: MONGODB_URI is not set
      });
      after(async () => {
        if (url) await dropDatabase(url);
      });

      it('becomes ready (503 then 200) without a restart, and serves tokens from it', async () => {
        const target = new URL(url!);
        const proxy = await startTcpProxy(target.hostname, Number(target.port || 27017));
        proxy.pause();
        const proxied = new URL(url!);
        proxied.host = `127.0.0.1:${proxy.port}`;
        const idp = await createIdp({ port: 0, databaseUrl: proxied.href });
        try {
          await request(idp.url).get('/readyz').expect(503);
          proxy.resume();
          await idp.ready();
          const ready = await request(idp.url).get('/readyz').expect(200);
          expect(ready.body).to.deep.equal({ status: 'ok', checks: { oidc: { status: 'ok' }, db: { status: 'ok' } } });
          const token = await request(idp.url)
            .post('/token')
            .auth(idp.client.clientId, idp.client.clientSecret!)
            .type('form')
            .send({ grant_type: 'client_credentials' })
            .expect(200);
          expect(token.body.access_token).to.be.a('string');
        } finally {
          await idp.close();
          await proxy.close();
        }
      });
    });
  });
});
