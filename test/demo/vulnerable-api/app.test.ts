import { expect } from 'chai';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createDemoApi, type DemoApi } from '../../../demo/vulnerable-api/app.js';
import { tokenOf } from '../../../demo/vulnerable-api/store.js';

const as = (demo: DemoApi, user: string) => ({ Authorization: `Bearer ${tokenOf(demo.store, user)}` });

describe('demo/vulnerable-api (the vulnerable twin)', () => {
  const demo = createDemoApi();

  it('serves its OpenAPI 3.1 description with the origin it was asked on', async () => {
    const res = await request(demo.app).get('/openapi.json').expect(200);
    expect(res.body.openapi).to.equal('3.1.0');
    expect(res.body.servers[0].url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('breaks on a quote with SQLite error text and a stack trace, and lists hidden rows for a tautology', async () => {
    const broken = await request(demo.app).get("/api/products?category=books'").expect(500);
    expect(broken.body.error).to.equal(`SQLITE_ERROR: unrecognized token: "'books''"`);
    expect(broken.body.stack).to.include('at tokenize');
    const all = await request(demo.app).get("/api/products?category=x' OR '1'='1").expect(200);
    expect(all.body.map((p: { category: string }) => p.category)).to.include('internal');
  });

  it('signs in with {"$ne": null} as the password, and tells an unknown user from a wrong password', async () => {
    await request(demo.app)
      .post('/api/login')
      .send({ username: 'alice', password: { $ne: null } })
      .expect(200);
    const unknown = await request(demo.app).post('/api/login').send({ username: 'nobody', password: 'x' });
    const wrong = await request(demo.app).post('/api/login').send({ username: 'alice', password: 'x' });
    expect([unknown.status, wrong.status]).to.deep.equal([404, 401]);
  });

  it('takes isAdmin and role from a registration body', async () => {
    const res = await request(demo.app)
      .post('/api/register')
      .send({ username: 'mallory', email: 'mallory@example.com', password: 'pw', isAdmin: true, role: 'admin' })
      .expect(201);
    expect(res.body).to.include({ isAdmin: true, role: 'admin' });
  });

  it("lists every user's password and API key, every account where one is promised, and anyone's orders", async () => {
    const users = await request(demo.app).get('/api/users').set(as(demo, 'bob')).expect(200);
    expect(users.body[0]).to.include.keys('password', 'apiKey');
    const account = await request(demo.app).get('/api/account').set(as(demo, 'bob')).expect(200);
    expect(account.body).to.be.an('array').with.length.greaterThan(1);
    const orders = await request(demo.app).get('/api/users/u1/orders').set(as(demo, 'bob')).expect(200);
    expect(orders.body.map((o: { id: string }) => o.id)).to.deep.equal(['o1', 'o2']);
  });

  it('fetches a loopback webhook URL it is given, and nothing beyond loopback', async () => {
    let hits = 0;
    const hook = createServer((_req, res) => void ((hits += 1), res.end('ok')));
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
      await request(demo.app).post('/api/webhooks').set(as(demo, 'alice')).send({ url }).expect(201);
      await request(demo.app)
        .post('/api/webhooks')
        .set(as(demo, 'alice'))
        .send({ url: 'http://192.0.2.1/' })
        .expect(400);
      expect(hits).to.equal(1);
    } finally {
      hook.close();
    }
  });
});

describe('demo/vulnerable-api --secure (the secure twin)', () => {
  const demo = createDemoApi({ secure: true });

  it('binds the category as a parameter and answers errors without internals', async () => {
    const quoted = await request(demo.app).get("/api/products?category=x' OR '1'='1").expect(200);
    expect(quoted.body).to.deep.equal([]);
    const malformed = await request(demo.app)
      .post('/api/login')
      .set('content-type', 'application/json')
      .send('{bad')
      .expect(400);
    expect(malformed.body).to.deep.equal({ error: 'bad request' });
  });

  it('refuses operators and answers every failed login alike', async () => {
    await request(demo.app)
      .post('/api/login')
      .send({ username: 'alice', password: { $ne: null } })
      .expect(400);
    const unknown = await request(demo.app).post('/api/login').send({ username: 'nobody', password: 'x' });
    const wrong = await request(demo.app).post('/api/login').send({ username: 'alice', password: 'x' });
    expect([unknown.status, unknown.body, wrong.status]).to.deep.equal([401, wrong.body, 401]);
  });

  it('ignores isAdmin and role in a registration and in an account update', async () => {
    const res = await request(demo.app)
      .post('/api/register')
      .send({
        username: 'mallory',
        email: 'mallory@example.com',
        password: 'long-enough-pw',
        isAdmin: true,
        role: 'admin',
      })
      .expect(201);
    expect(res.body).to.include({ isAdmin: false, role: 'user' });
    const updated = await request(demo.app)
      .patch('/api/account')
      .set(as(demo, 'bob'))
      .send({ displayName: 'B', isAdmin: true })
      .expect(200);
    expect(updated.body).to.include({ displayName: 'B', isAdmin: false });
  });

  it("shows public profiles only, the caller alone, and only the caller's orders", async () => {
    const users = await request(demo.app).get('/api/users').set(as(demo, 'bob')).expect(200);
    expect(Object.keys(users.body[0])).to.deep.equal(['id', 'username']);
    const account = await request(demo.app).get('/api/account').set(as(demo, 'bob')).expect(200);
    expect(account.body.username).to.equal('bob');
    await request(demo.app).get('/api/users/u1/orders').set(as(demo, 'bob')).expect(404);
  });

  it('refuses loopback webhook URLs and a long email before any regular expression runs', async () => {
    await request(demo.app)
      .post('/api/webhooks')
      .set(as(demo, 'alice'))
      .send({ url: 'http://127.0.0.1:9/hook' })
      .expect(400);
    await request(demo.app)
      .post('/api/register')
      .send({ username: 'longmail', email: `${'a'.repeat(5000)}!`, password: 'long-enough-pw' })
      .expect(400);
  });
});
