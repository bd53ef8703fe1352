/**
 * Browsers and proxies (issue 26): CORS_ALLOWED_ORIGINS lets a listed origin's browser call the public API — its
 * preflight answered without a token, the response headers a client needs exposed, never `*` — and gives any other
 * origin no CORS header; TRUST_PROXY decides whether the access log takes the client address from
 * X-Forwarded-For, and every access line carries the client address and the subject.
 */
import { expect } from 'chai';
import { loadServiceConfig } from '../../../server/config.js';
import { startTestAuth, type TestAuth } from '../../support/test-auth.js';
import { startSurfaces, type Surfaces } from './surfaces.js';

const ALLOWED = 'https://console.example.com';
const FOREIGN = 'https://evil.example';

describe('CORS_ALLOWED_ORIGINS', () => {
  let auth: TestAuth;
  let s: Surfaces;
  before(async () => {
    auth = await startTestAuth();
    s = await startSurfaces({
      ...auth.env(),
      API_AUTH_AUDIENCE: auth.audience,
      CORS_ALLOWED_ORIGINS: `${ALLOWED},http://localhost:5173`,
    });
  });
  after(async () => {
    await s.close();
    await auth.close();
  });

  const preflight = (origin: string) =>
    s.public
      .options('/api/v1/organizations')
      .set('Origin', origin)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization, content-type, idempotency-key');

  it('answers a listed origin’s preflight without a token', async () => {
    const res = await preflight(ALLOWED);
    expect(res.status).to.equal(204);
    expect(res.headers['access-control-allow-origin']).to.equal(ALLOWED);
    expect(res.headers['access-control-allow-methods']).to.include('POST');
    expect(res.headers['access-control-allow-headers']).to.match(/Authorization.*Idempotency-Key/);
    expect(res.headers.vary).to.include('Origin');
  });

  it('exposes the headers a client reads on a listed origin’s request, never *', async () => {
    const res = await s.public
      .get('/api/v1/organizations')
      .set('Origin', ALLOWED)
      .set('Authorization', `Bearer ${await auth.token()}`);
    expect(res.status).to.equal(200);
    expect(res.headers['access-control-allow-origin']).to.equal(ALLOWED);
    expect(res.headers['access-control-expose-headers']).to.equal(
      'ETag, RateLimit, RateLimit-Policy, Retry-After, X-Request-Id, Location',
    );
    expect(res.headers['access-control-allow-credentials']).to.equal(undefined);
  });

  it('gives another origin no CORS header at all, its preflight included (it gets the 401 of a request without token)', async () => {
    const refused = await preflight(FOREIGN);
    expect(refused.status).to.equal(401);
    const answered = await s.public
      .get('/api/v1/organizations')
      .set('Origin', FOREIGN)
      .set('Authorization', `Bearer ${await auth.token()}`);
    for (const res of [refused, answered])
      expect(Object.keys(res.headers).filter((name) => name.startsWith('access-control-'))).to.deep.equal([]);
  });

  it('refuses * and anything that is not an origin at start', () => {
    for (const value of ['*', 'https://console.example.com/', 'console.example.com', 'https://a.example/path']) {
      expect(() => loadServiceConfig({ CORS_ALLOWED_ORIGINS: value }), value).to.throw(/CORS_ALLOWED_ORIGINS/);
    }
  });
});

describe('TRUST_PROXY and the access log', () => {
  let auth: TestAuth;
  before(async () => {
    auth = await startTestAuth();
  });
  after(() => auth.close());

  /** The access line of one request through `s` carrying X-Forwarded-For. */
  async function accessLine(s: Surfaces, token?: string) {
    const request = s.public.get('/api/v1/organizations').set('X-Forwarded-For', '203.0.113.7, 198.51.100.2');
    const res = await (token ? request.set('Authorization', `Bearer ${token}`) : request);
    return s.lines().find((line) => line.msg === 'request completed' && line.reqId === res.headers['x-request-id']);
  }

  it('logs the peer address and ignores X-Forwarded-For without TRUST_PROXY, with the subject on every line', async () => {
    const s = await startSurfaces({ ...auth.env(), API_AUTH_AUDIENCE: auth.audience });
    try {
      const line = await accessLine(s, await auth.token({ sub: 'carol' }));
      expect(line).to.include({ client: '127.0.0.1', sub: 'carol' });
      expect(await accessLine(s)).to.include({ client: '127.0.0.1', sub: null });
    } finally {
      await s.close();
    }
  });

  it('takes the client address from X-Forwarded-For through as many proxies as TRUST_PROXY trusts', async () => {
    const oneHop = await startSurfaces({ ...auth.env(), API_AUTH_AUDIENCE: auth.audience, TRUST_PROXY: '1' });
    const loopback = await startSurfaces({ ...auth.env(), API_AUTH_AUDIENCE: auth.audience, TRUST_PROXY: 'loopback' });
    try {
      expect(await accessLine(oneHop, await auth.token())).to.include({ client: '198.51.100.2', sub: 'alice' });
      expect(await accessLine(loopback, await auth.token())).to.include({ client: '198.51.100.2' });
    } finally {
      await oneHop.close();
      await loopback.close();
    }
  });

  it('refuses TRUST_PROXY=true and values that are neither a hop count nor addresses', () => {
    for (const value of ['true', '10.0.0.0/33', 'proxy.example', '1.2.3.4/8/9'])
      expect(() => loadServiceConfig({ TRUST_PROXY: value }), value).to.throw(/TRUST_PROXY/);
    expect(loadServiceConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.1,uniquelocal' }).trustProxy).to.be.a('string');
  });
});
