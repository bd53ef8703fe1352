import { expect } from 'chai';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { run } from '../../idp/cli.js';
import { createIdp, type RunningIdp } from '../../idp/create-idp.js';
import { Browser } from './support/browser.js';
import { dropDatabase, mongoTestUrl } from './support/mongo.js';
import { authorizationRequest, discover, exchange } from './support/relying-party.js';

const REDIRECT = 'http://127.0.0.1:9/callback';

/** Calls one testing operation over HTTP; resolves to the status and JSON body. */
async function testing(
  idp: { issuer: string },
  method: string,
  path: string,
  body?: unknown,
): Promise<{
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON bodies of many shapes, asserted per test
  body: any;
}> {
  const response = await fetch(`${idp.issuer}/_testing${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** Authorization code + PKCE through the login page-less path the testing API's next login takes. */
async function login(config: oidc.Configuration, idp: RunningIdp, scope = 'openid') {
  const request = authorizationRequest(config, idp, { scope });
  const landed = await new Browser(new URL(idp.url).origin).go((await request.url()).href);
  expect(landed.status, landed.html?.slice(0, 200)).to.equal(0); // straight back to the client, no page
  return exchange(config, landed.url, request);
}

async function bearerStatus(idp: RunningIdp, token: string): Promise<number> {
  return (await fetch(`${idp.issuer}/me`, { headers: { authorization: `Bearer ${token}` } })).status;
}

describe('idp: testing API over HTTP (--enable-testing-api), driven with openid-client', () => {
  let idp: RunningIdp;
  let config: oidc.Configuration;
  before(async () => {
    idp = await createIdp({ port: 0, redirectUris: [REDIRECT], enableTestingApi: true });
    config = await discover(idp);
  });
  after(() => idp.close());
  afterEach(() => testing(idp, 'POST', '/reset'));

  it('mints an access token that works at /me and at introspection', async () => {
    const { status, body } = await testing(idp, 'POST', '/tokens', { sub: 'alice', scope: 'openid email' });
    expect(status).to.equal(201);
    expect(body).to.include({ kind: 'access', format: 'opaque' });
    expect(await oidc.fetchUserInfo(config, body.token, 'alice')).to.include({
      sub: 'alice',
      email: 'alice@example.com',
    });
    expect(await oidc.tokenIntrospection(config, body.token)).to.include({
      active: true,
      sub: 'alice',
      client_id: idp.client.clientId,
    });
  });

  it('mints an ID token signed with the current key, and deliberately bad tokens that /me refuses', async () => {
    const id = (await testing(idp, 'POST', '/tokens', { kind: 'id', sub: 'bob', claims: { name: 'Bob' } })).body
      .token as string;
    const { payload } = await jwtVerify(id, createRemoteJWKSet(new URL(`${idp.issuer}/jwks`)), {
      issuer: idp.issuer,
      audience: idp.client.clientId,
    });
    expect(payload).to.include({ sub: 'bob', name: 'Bob' });
    for (const bad of [{ expiresIn: -60 }, { alg: 'none' }, { signWith: 'foreign' }, { notBefore: 600 }]) {
      const { status, body } = await testing(idp, 'POST', '/tokens', { sub: 'alice', ...bad });
      expect(status, JSON.stringify(bad)).to.equal(201);
      expect(await bearerStatus(idp, body.token), JSON.stringify(bad)).to.equal(401);
    }
    // An expired token keeps the provider's (opaque) format: introspection knows it and says inactive.
    const expired = (await testing(idp, 'POST', '/tokens', { sub: 'alice', expiresIn: -60 })).body;
    expect(expired.format).to.equal('opaque');
    expect((await oidc.tokenIntrospection(config, expired.token)).active).to.equal(false);
  });

  it('answers 400 invalid_request for a malformed operation', async () => {
    expect(await testing(idp, 'POST', '/faults', { endpoint: 'nowhere', error: 'x' })).to.deep.include({ status: 400 });
    expect((await testing(idp, 'POST', '/tokens', { kind: 'weird' })).body).to.include({ error: 'invalid_request' });
  });

  it('makes the next token request fail with the chosen error, and the one after succeed', async () => {
    expect(
      (
        await testing(idp, 'POST', '/faults', {
          endpoint: 'token',
          error: 'invalid_grant',
          errorDescription: 'try again',
        })
      ).status,
    ).to.equal(204);
    let failure: unknown;
    await oidc.clientCredentialsGrant(config).catch((e) => (failure = e));
    expect(failure).to.be.instanceOf(oidc.ResponseBodyError);
    expect((failure as oidc.ResponseBodyError).error).to.equal('invalid_grant');
    expect((failure as oidc.ResponseBodyError).status).to.equal(400);
    expect((await oidc.clientCredentialsGrant(config)).access_token).to.be.a('string');
  });

  it('answers faults with a chosen status, and delays without failing', async () => {
    await testing(idp, 'POST', '/faults', { endpoint: 'discovery', status: 503, times: 2 });
    expect((await fetch(idp.discoveryUrl)).status).to.equal(503);
    expect(await (await fetch(idp.discoveryUrl)).json()).to.include({ error: 'server_error' });
    expect((await fetch(idp.discoveryUrl)).status).to.equal(200);
    await testing(idp, 'POST', '/faults', { endpoint: 'jwks', delayMs: 50 });
    expect((await fetch(`${idp.issuer}/jwks`)).status).to.equal(200);
  });

  it('logs in the next identity with its claims, without a page, then falls back to the login page', async () => {
    await testing(idp, 'POST', '/logins', { sub: 'carol', claims: { email: 'carol@example.com', groups: ['admins'] } });
    const tokens = await login(config, idp, 'openid email profile');
    expect(tokens.claims()).to.include({ sub: 'carol' });
    expect(await oidc.fetchUserInfo(config, tokens.access_token, 'carol')).to.deep.include({
      email: 'carol@example.com',
      groups: ['admins'],
    });
    const request = authorizationRequest(config, idp, {});
    const page = await new Browser(new URL(idp.url).origin).go((await request.url()).href);
    expect(page.status).to.equal(200);
    expect(page.html).to.contain('<form');
  });

  it('moves the clock: a token valid now is expired an hour and a bit later, and fresh tokens work on the moved clock', async () => {
    const { token } = (await testing(idp, 'POST', '/tokens', { sub: 'alice', expiresIn: 3600 })).body;
    const other = (await testing(idp, 'POST', '/tokens', { sub: 'alice', expiresIn: 3600 })).body.token as string;
    expect((await oidc.tokenIntrospection(config, token)).active).to.equal(true);
    expect((await testing(idp, 'POST', '/clock', { offsetSeconds: 3700 })).body).to.deep.equal({ offsetSeconds: 3700 });
    expect((await oidc.tokenIntrospection(config, token)).active).to.equal(false);
    expect(await bearerStatus(idp, other)).to.equal(401);
    const fresh = (await oidc.clientCredentialsGrant(config)).access_token;
    expect((await oidc.tokenIntrospection(config, fresh)).active).to.equal(true);
  });

  it('issues tokens on the moved clock (iat and exp shifted)', async () => {
    await testing(idp, 'POST', '/clock', { offsetSeconds: -86400 });
    const id = (await testing(idp, 'POST', '/tokens', { kind: 'id' })).body.token as string;
    const iat = JSON.parse(Buffer.from(id.split('.')[1], 'base64url').toString()).iat as number;
    expect(Math.floor(Date.now() / 1000) - iat).to.be.within(86300, 86500);
  });

  it('rotates keys: new tokens carry the new kid, old ones verify until the old key is retired', async () => {
    const jwks = createRemoteJWKSet(new URL(`${idp.issuer}/jwks`), { cooldownDuration: 0, cacheMaxAge: 0 });
    await testing(idp, 'POST', '/logins', { sub: 'alice' });
    const before = (await login(config, idp)).id_token!;
    const rotated = await testing(idp, 'POST', '/keys/rotate');
    expect(rotated.status).to.equal(200);
    await testing(idp, 'POST', '/logins', { sub: 'alice' });
    const after = (await login(await discover(idp), idp)).id_token!;
    expect(decodeProtectedHeader(after).kid).to.equal(rotated.body.current[0]);
    expect(decodeProtectedHeader(after).kid).to.not.equal(decodeProtectedHeader(before).kid);
    await jwtVerify(before, jwks, { issuer: idp.issuer });
    await jwtVerify(after, jwks, { issuer: idp.issuer });
    const retired = await testing(idp, 'POST', '/keys/retire');
    expect(retired.body.retired).to.include(decodeProtectedHeader(before).kid);
    const fresh = createRemoteJWKSet(new URL(`${idp.issuer}/jwks`));
    await jwtVerify(after, fresh, { issuer: idp.issuer });
    let failure: unknown;
    await jwtVerify(before, fresh, { issuer: idp.issuer }).catch((e) => (failure = e));
    expect((failure as Error).name).to.equal('JWKSNoMatchingKey');
  });

  it('shows what the provider received, with the client and grant, secrets left out', async () => {
    const since = ((await testing(idp, 'GET', '/requests')).body.requests as { seq: number }[]).at(-1)?.seq ?? 0;
    await oidc.clientCredentialsGrant(config);
    await fetch(`${idp.issuer}/me?access_token=secret-looking`);
    const { requests } = (await testing(idp, 'GET', `/requests?since=${since}`)).body as {
      requests: Record<string, unknown>[];
    };
    const token = requests.find((r) => r.path === '/token');
    expect(token).to.include({
      method: 'POST',
      status: 200,
      clientId: idp.client.clientId,
      grantType: 'client_credentials',
    });
    expect(requests.find((r) => r.path === '/me')).to.deep.include({ query: { access_token: '[redacted]' } });
    expect(JSON.stringify(requests)).to.not.contain(idp.client.clientSecret!).and.not.contain('secret-looking');
    expect(requests.some((r) => String(r.path).startsWith('/_testing'))).to.equal(false);
  });

  it('resets to the start state: keys, clock, faults, logins, request log and issued tokens', async () => {
    const startKeys = await (await fetch(`${idp.issuer}/jwks`)).json();
    const { token } = (await testing(idp, 'POST', '/tokens', {})).body;
    await testing(idp, 'POST', '/keys/rotate');
    await testing(idp, 'POST', '/clock', { offsetSeconds: 99 });
    await testing(idp, 'POST', '/faults', { endpoint: 'token', error: 'invalid_client' });
    await testing(idp, 'POST', '/logins', { sub: 'zed' });
    expect((await testing(idp, 'POST', '/reset')).status).to.equal(204);
    expect((await testing(idp, 'GET', '/requests')).body).to.deep.equal({ requests: [] });
    expect(await (await fetch(`${idp.issuer}/jwks`)).json()).to.deep.equal(startKeys);
    expect((await testing(idp, 'GET', '/clock')).body).to.deep.equal({ offsetSeconds: 0 });
    expect((await oidc.tokenIntrospection(config, token)).active).to.equal(false);
    expect((await oidc.clientCredentialsGrant(config)).access_token).to.be.a('string');
    const page = await new Browser(new URL(idp.url).origin).go(
      (await authorizationRequest(config, idp, {}).url()).href,
    );
    expect(page.status).to.equal(200); // no queued login left: the login page
  });
});

describe('idp: testing API in-process (createIdp().testing)', () => {
  let idp: RunningIdp;
  let config: oidc.Configuration;
  before(async () => {
    idp = await createIdp({ port: 0, redirectUris: [REDIRECT], enableTestingApi: true });
    config = await discover(idp);
  });
  after(() => idp.close());

  it('mints, faults, moves the clock, rotates and retires keys, logs and resets like the HTTP surface', async () => {
    const api = idp.testing!;
    const { token } = await api.mintToken({ sub: 'alice', scope: 'openid email' });
    expect(await oidc.fetchUserInfo(config, token, 'alice')).to.include({ email: 'alice@example.com' });
    expect((await oidc.tokenIntrospection(config, token)).active).to.equal(true);

    api.fault({ endpoint: 'token', error: 'unauthorized_client' });
    const failure = await oidc.clientCredentialsGrant(config).catch((e: oidc.ResponseBodyError) => e);
    expect(failure).to.include({ error: 'unauthorized_client', status: 400 });
    expect((await oidc.clientCredentialsGrant(config)).access_token).to.be.a('string');

    api.setClock(4000);
    expect((await oidc.tokenIntrospection(config, token)).active).to.equal(false);
    api.setClock(0);

    await api.nextLogin({ sub: 'dave', claims: { email: 'dave@example.com' } });
    const tokens = await login(config, idp, 'openid email');
    expect(tokens.claims()).to.include({ sub: 'dave' });

    const { current } = await api.rotateKeys();
    const id = (await api.mintToken({ kind: 'id' })).token;
    expect(decodeProtectedHeader(id).kid).to.equal(current[0]);
    await jwtVerify(tokens.id_token!, createRemoteJWKSet(new URL(`${idp.issuer}/jwks`)), { issuer: idp.issuer });
    const { retired } = await api.retireKeys();
    expect(retired).to.include(decodeProtectedHeader(tokens.id_token!).kid);

    expect(api.requests().map((r) => r.path)).to.include.members(['/token', '/token/introspection', '/me']);
    await api.reset();
    expect(api.requests()).to.deep.equal([]);
    expect(api.clockOffsetSeconds).to.equal(0);
    expect((await oidc.tokenIntrospection(config, token)).active).to.equal(false);
  });
});

describe('idp: testing API availability', () => {
  it('is off by default: /_testing/ is not served and createIdp().testing is undefined', async () => {
    const idp = await createIdp({ port: 0 });
    try {
      expect(idp.testing).to.equal(undefined);
      expect((await fetch(`${idp.issuer}/_testing/tokens`, { method: 'POST' })).status).to.equal(404);
    } finally {
      await idp.close();
    }
  });

  it('is refused on a non-loopback host with a clear start-up error, before anything listens', async () => {
    let failure: unknown;
    await createIdp({ port: 0, host: '0.0.0.0', enableTestingApi: true }).catch((e) => (failure = e));
    expect((failure as Error).message).to.match(/refusing it on 0\.0\.0\.0.*allowTestingApiOnPublicHost/);
    let err = '';
    const code = await run(['--host', '0.0.0.0', '--port', '0', '--enable-testing-api'], {
      stdout: { write: () => true },
      stderr: { write: (s: string) => (err += s) },
      env: {},
    });
    expect(code).to.equal(1);
    expect(err.trim().split('\n')).to.have.length(1);
    expect(err).to.contain('--allow-testing-api-on-public-host');
  });
});

describe('idp: testing API on MongoDB', function () {
  const url = mongoTestUrl('testing');
  before(function () {
    if (!url) this.skip(); // reason printed once by mongoTestUrl: MONGODB_URI is not set
  });
  after(async () => {
    if (url) await dropDatabase(url);
  });

  it('keeps rotated keys across a restart, and reset brings back the keys it started with and empties the stored tokens', async () => {
    let idp = await createIdp({ port: 0, databaseUrl: url, enableTestingApi: true });
    const kids = async () =>
      ((await (await fetch(`${idp.issuer}/jwks`)).json()) as { keys: { kid: string }[] }).keys.map((k) => k.kid);
    try {
      const start = await kids();
      const { token } = await idp.testing!.mintToken({});
      const { current } = await idp.testing!.rotateKeys();
      await idp.close();
      idp = await createIdp({ port: 0, databaseUrl: url, enableTestingApi: true });
      const restarted = await kids();
      expect(restarted.slice(0, current.length)).to.deep.equal(current);
      expect(restarted).to.include.members(start);
      const config = await discover(idp);
      expect((await oidc.tokenIntrospection(config, token)).active).to.equal(true);
      await idp.testing!.retireKeys();
      await idp.testing!.reset(); // back to this process's start: the keys it loaded, not the first process's
      expect(await kids()).to.deep.equal(restarted);
      expect((await oidc.tokenIntrospection(config, token)).active).to.equal(false);
    } finally {
      await idp.close();
    }
  });
});
