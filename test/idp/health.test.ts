import { expect } from 'chai';
import request from 'supertest';
import { createIdp, type RunningIdp } from '../../idp/create-idp.js';
import { createMemoryStore } from '../../idp/adapters/memory.js';
import { runChecks } from '../../idp/health.js';
import { dropDatabase, mongoTestUrl } from './support/mongo.js';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.js';

describe('idp: health endpoints', () => {
  describe('without a database', () => {
    let idp: RunningIdp;
    before(async () => {
      idp = await createIdp({ port: 0 });
    });
    after(() => idp.close());

    it('GET /healthz answers 200 { status: "ok" }', async () => {
      const res = await request(idp.url).get('/healthz').expect(200);
      expect(res.body).to.deep.equal({ status: 'ok' });
    });

    it('GET /readyz answers 200 with the oidc check only', async () => {
      const res = await request(idp.url).get('/readyz').expect(200);
      expect(res.body).to.deep.equal({ status: 'ok', checks: { oidc: { status: 'ok' } } });
      expect(res.headers['cache-control']).to.equal('no-store');
    });
  });

  describe('runChecks', () => {
    it('reports a failing check with its error string and an overall error', async () => {
      const result = await runChecks({
        oidc: async () => undefined,
        db: async () => Promise.reject(new Error('connection refused')),
      });
      expect(result).to.deep.equal({
        status: 'error',
        checks: { oidc: { status: 'ok' }, db: { status: 'error', error: 'connection refused' } },
      });
    });
  });

  describe('with a store whose database does not answer', () => {
    it('GET /readyz answers 503 naming the db check and its error; /healthz stays 200', async () => {
      const store = {
        ...createMemoryStore(),
        ping: async () => Promise.reject(new Error('database did not answer within 2000 ms')),
      };
      const idp = await createIdp({ port: 0, store });
      try {
        const res = await request(idp.url).get('/readyz').expect(503);
        expect(res.body).to.deep.equal({
          status: 'error',
          checks: { oidc: { status: 'ok' }, db: { status: 'error', error: 'database did not answer within 2000 ms' } },
        });
        await request(idp.url).get('/healthz').expect(200, { status: 'ok' });
      } finally {
        await idp.close();
        await store.close();
      }
    });
  });

  describe('with a database', function () {
    const url = mongoTestUrl('health');
    let proxy: TcpProxy;
    let idp: RunningIdp;
    before(async function () {
      if (!url) this.skip(); // reason printed once by mongoTestUrl: MONGODB_URI is not set
      const target = new URL(url);
      proxy = await startTcpProxy(target.hostname, Number(target.port || 27017));
      const proxied = new URL(url);
      proxied.host = `127.0.0.1:${proxy.port}`;
      idp = await createIdp({ port: 0, databaseUrl: proxied.href });
    });
    after(async () => {
      if (!url) return;
      await idp?.close();
      await proxy?.close();
      await dropDatabase(url);
    });

    it('GET /readyz answers 200 with checks.db ok while the database answers', async () => {
      const res = await request(idp.url).get('/readyz').expect(200);
      expect(res.body).to.deep.equal({ status: 'ok', checks: { oidc: { status: 'ok' }, db: { status: 'ok' } } });
    });

    it('GET /readyz answers 503 with checks.db.error when the database is down, while /healthz stays 200', async () => {
      proxy.pause();
      try {
        const res = await request(idp.url).get('/readyz').expect(503);
        expect(res.body.status).to.equal('error');
        expect(res.body.checks.oidc).to.deep.equal({ status: 'ok' });
        expect(res.body.checks.db.status).to.equal('error');
        expect(res.body.checks.db.error).to.be.a('string').and.not.equal('');
        await request(idp.url).get('/healthz').expect(200, { status: 'ok' });
      } finally {
        proxy.resume();
      }
    });

    it('is ready again once the database is back, and serves tokens from it', async () => {
      let status = 0;
      for (let attempt = 0; attempt < 50 && status !== 200; attempt += 1) {
        status = (await request(idp.url).get('/readyz')).status;
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(status).to.equal(200);
      const token = await request(idp.url)
        .post('/token')
        .auth(idp.client.clientId, idp.client.clientSecret!)
        .type('form')
        .send({ grant_type: 'client_credentials' })
        .expect(200);
      expect(token.body.access_token).to.be.a('string');
    });
  });
});
