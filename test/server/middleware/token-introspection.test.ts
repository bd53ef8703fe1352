import { expect } from 'chai';
import { startTestAuth, type TestAuth } from '../../support/test-auth.js';
import { startAuthTestApp, type AuthTestApp } from './auth-test-app.js';
import { startFakeAuthorizationServer, type FakeAuthorizationServer } from './fake-authorization-server.js';

const CLIENT_ID = 'gatehouse api';
const CLIENT_SECRET = 's3cr:t/+';

describe('authenticate: opaque tokens through RFC 7662 introspection', () => {
  let auth: TestAuth;
  let as: FakeAuthorizationServer;
  let t: AuthTestApp;
  const now = () => Math.floor(Date.now() / 1000);
  let seq = 0;
  const freshToken = () => `opaque-${++seq}-${Math.random().toString(36).slice(2)}`;

  before(async () => {
    auth = await startTestAuth();
    as = await startFakeAuthorizationServer(auth.jwksUri);
    t = await startAuthTestApp(
      {
        API_AUTH_TOKEN_TYPES: 'jwt,opaque',
        API_AUTH_INTROSPECTION_URL: as.introspectionUrl,
        API_AUTH_CLIENT_ID: CLIENT_ID,
        API_AUTH_CLIENT_SECRET: CLIENT_SECRET,
      },
      auth,
      { introspectionTimeoutMs: 300 },
    );
  });
  beforeEach(() => {
    as.introspectionCalls = [];
  });
  after(async () => {
    await t.close();
    await as.close();
    await auth.close();
  });

  function active(extra: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      active: true,
      sub: 'bob',
      client_id: 'cli-1',
      scope: 'registrations:read change_sets:write',
      exp: now() + 300,
      iss: auth.issuer,
      aud: auth.audience,
      ...extra,
    };
  }

  async function call(token: string) {
    return t.request.get('/whoami').set('Authorization', `Bearer ${token}`);
  }

  it('accepts an active token, authenticating as the protected resource with client_secret_basic', async () => {
    as.answer = () => ({ kind: 'json', body: active() });
    const token = freshToken();
    const res = await call(token);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({
      sub: 'bob',
      clientId: 'cli-1',
      scopes: ['change_sets:write', 'registrations:read'],
      tokenKind: 'opaque',
    });
    expect(as.introspectionCalls).to.have.length(1);
    const [call0] = as.introspectionCalls;
    expect(call0.token).to.equal(token);
    expect(call0.hint).to.equal('access_token');
    // RFC 6749 §2.3.1: id and secret are form-encoded before base64.
    expect(call0.authorization).to.equal(`Basic ${Buffer.from('gatehouse+api:s3cr%3At%2F%2B').toString('base64')}`);
  });

  it('answers from the cache for the same token without asking again', async () => {
    as.answer = () => ({ kind: 'json', body: active() });
    const token = freshToken();
    expect((await call(token)).status).to.equal(200);
    expect((await call(token)).status).to.equal(200);
    expect(as.introspectionCalls).to.have.length(1);
  });

  it('asks once for concurrent requests carrying the same new token', async () => {
    as.answer = () => ({ kind: 'json', body: active() });
    const token = freshToken();
    const statuses = await Promise.all(Array.from({ length: 5 }, async () => (await call(token)).status));
    expect(statuses).to.deep.equal([200, 200, 200, 200, 200]);
    expect(as.introspectionCalls).to.have.length(1);
  });

  it('never serves a cached answer past the token exp', async () => {
    let calls = 0;
    as.answer = () => {
      calls += 1;
      return calls === 1
        ? { kind: 'json', body: active({ exp: now() + 1 }) }
        : { kind: 'json', body: { active: false } };
    };
    const token = freshToken();
    expect((await call(token)).status).to.equal(200);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await call(token)).status).to.equal(401);
    expect(as.introspectionCalls).to.have.length(2);
  });

  it('answers 401 invalid_token for an inactive token', async () => {
    as.answer = () => ({ kind: 'json', body: { active: false } });
    const res = await call(freshToken());
    expect(res.status).to.equal(401);
    expect(res.body.error.code).to.equal('invalid_token');
    expect(res.headers['www-authenticate']).to.contain('error="invalid_token"');
  });

  it('treats anything but a literal true as inactive', async () => {
    for (const value of ['true', 1, null, {}]) {
      as.answer = () => ({ kind: 'json', body: active({ active: value }) });
      expect((await call(freshToken())).status, JSON.stringify(value)).to.equal(401);
    }
  });

  it('refuses active tokens that are expired, from another issuer, for another audience or not access tokens', async () => {
    for (const extra of [
      { exp: now() - 600 },
      { iss: 'https://evil.example' },
      { aud: ['https://other.example'] },
      { token_type: 'refresh_token' },
      { sub: undefined, client_id: undefined },
    ]) {
      as.answer = () => ({ kind: 'json', body: active(extra) });
      expect((await call(freshToken())).status, JSON.stringify(extra)).to.equal(401);
    }
  });

  it('accepts an audience list naming this API and takes the client as subject when sub is absent', async () => {
    as.answer = () => ({
      kind: 'json',
      body: active({ aud: ['https://other.example', auth.audience], sub: undefined }),
    });
    const res = await call(freshToken());
    expect(res.status).to.equal(200);
    expect(res.body.sub).to.equal('cli-1');
  });

  it('answers 503 (never 401 or 200) when the introspection endpoint fails, answers garbage or times out', async () => {
    const outages = [
      { kind: 'json', body: { error: 'server_error' }, status: 500 },
      { kind: 'raw', body: '<html>oops</html>' },
      { kind: 'json', body: ['active', true] },
      { kind: 'json', body: { sub: 'bob' } },
      { kind: 'hang' },
    ] as const;
    for (const outage of outages) {
      as.answer = () => outage;
      const res = await call(freshToken());
      expect(res.status, JSON.stringify(outage)).to.equal(503);
      expect(res.body.error.code).to.equal('unavailable');
      expect(res.headers['retry-after']).to.match(/^\d+$/);
    }
  });

  it('still verifies JWT-shaped tokens locally without introspecting them', async () => {
    const res = await call(await auth.token());
    expect(res.status).to.equal(200);
    expect(res.body.tokenKind).to.equal('jwt');
    expect(as.introspectionCalls).to.have.length(0);
  });
});

describe('authenticate: opaque tokens only', () => {
  it('introspects every token, JWT-shaped ones included, when JWTs are not accepted locally', async () => {
    const auth = await startTestAuth();
    const as = await startFakeAuthorizationServer(auth.jwksUri);
    const t = await startAuthTestApp(
      {
        API_AUTH_TOKEN_TYPES: 'opaque',
        API_AUTH_INTROSPECTION_URL: as.introspectionUrl,
        API_AUTH_CLIENT_ID: 'a',
        API_AUTH_CLIENT_SECRET: 'b',
      },
      auth,
    );
    try {
      as.answer = () => ({ kind: 'json', body: { active: false } });
      const res = await t.request.get('/whoami').set('Authorization', `Bearer ${await auth.token()}`);
      expect(res.status).to.equal(401);
      expect(as.introspectionCalls).to.have.length(1);
    } finally {
      await t.close();
      await as.close();
      await auth.close();
    }
  });
});

describe('authenticate: discovery of the JWKS and introspection endpoints', () => {
  it('finds both endpoints in the issuer discovery document, fetched once', async () => {
    const auth = await startTestAuth();
    const as = await startFakeAuthorizationServer(auth.jwksUri);
    const t = await startAuthTestApp(
      {
        API_AUTH_ISSUER: as.issuer,
        API_AUTH_JWKS_URI: '',
        API_AUTH_TOKEN_TYPES: 'jwt,opaque',
        API_AUTH_CLIENT_ID: 'a',
        API_AUTH_CLIENT_SECRET: 'b',
      },
      auth,
    );
    try {
      as.answer = () => ({ kind: 'json', body: { active: true, sub: 'bob', iss: as.issuer, aud: auth.audience } });
      expect(
        (await t.request.get('/whoami').set('Authorization', `Bearer ${await auth.token({ iss: as.issuer })}`)).status,
      ).to.equal(200);
      expect((await t.request.get('/whoami').set('Authorization', 'Bearer opaque-1')).status).to.equal(200);
      expect(as.discoveryFetches).to.equal(1);
    } finally {
      await t.close();
      await as.close();
      await auth.close();
    }
  });

  it('answers 503 with Retry-After while the discovery document cannot be fetched', async () => {
    const auth = await startTestAuth();
    const as = await startFakeAuthorizationServer(auth.jwksUri);
    as.discoveryDown = true;
    const t = await startAuthTestApp({ API_AUTH_ISSUER: as.issuer, API_AUTH_JWKS_URI: '' }, auth);
    try {
      const res = await t.request.get('/whoami').set('Authorization', `Bearer ${await auth.token({ iss: as.issuer })}`);
      expect(res.status).to.equal(503);
      expect(res.body.error.code).to.equal('unavailable');
      expect(res.headers['retry-after']).to.match(/^\d+$/);
    } finally {
      await t.close();
      await as.close();
      await auth.close();
    }
  });
});
