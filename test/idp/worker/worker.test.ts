import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import * as oidc from 'openid-client';
import type { RunningIdp } from '../../../idp/create-idp.js';
import { startBackchannelReceiver } from '../support/backchannel-receiver.js';
import { Browser } from '../support/browser.js';
import { discover, headlessLogin, insecure } from '../support/relying-party.js';
import { createWorkerIdp, discoverInstance, startWorkerIdp, workerBundle } from './support/worker-idp.js';

const REDIRECT = 'http://127.0.0.1:9/callback';
const AFTER_LOGOUT = 'http://127.0.0.1:9/bye';
const USERS = JSON.stringify([
  { sub: 'alice', email: 'alice@example.com', email_verified: true, name: 'Alice Example' },
  { sub: 'bob', email: 'bob@example.com', preferred_username: 'bobby' },
]);
const VARS = {
  IDP_CLIENT_ID: 'edge-client',
  IDP_CLIENT_SECRET: 'edge-secret-0123456789',
  IDP_REDIRECT_URI: REDIRECT,
  IDP_POST_LOGOUT_REDIRECT_URI: AFTER_LOGOUT,
  IDP_SKIP_PROMPT: 'true',
  IDP_USERS: USERS,
  IDP_ENABLE_REGISTRATION: 'true',
  IDP_REGISTRATION_INITIAL_ACCESS_TOKEN: 'edge-iat',
  IDP_LOG_LEVEL: 'silent',
};

async function json(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('idp worker: the provider on workerd with a local D1 database', function () {
  this.timeout(60000);
  let d1Dir: string;
  let a: RunningIdp;
  let b: RunningIdp;
  before(async () => {
    await workerBundle();
    d1Dir = mkdtempSync(join(tmpdir(), 'idp-worker-d1-'));
    a = await startWorkerIdp({ vars: VARS, d1Dir });
    // A second workerd process on the same D1 files, configured with A's issuer (one deployment, two isolates).
    b = await startWorkerIdp({ vars: { ...VARS, IDP_ISSUER: a.issuer }, d1Dir });
  });
  after(async () => {
    await Promise.all([a?.close(), b?.close()]);
    rmSync(d1Dir, { recursive: true, force: true });
  });

  it('serves discovery with the request origin as issuer when IDP_ISSUER is not set', async () => {
    const { status, body } = await json(`${a.url}/.well-known/openid-configuration`);
    expect(status).to.equal(200);
    expect(body).to.include({
      issuer: a.url,
      token_endpoint: `${a.url}/token`,
      userinfo_endpoint: `${a.url}/me`,
      registration_endpoint: `${a.url}/register`,
    });
    expect(body.code_challenge_methods_supported).to.deep.equal(['S256']);
  });

  it('uses IDP_ISSUER when set, with endpoints on the host that was asked', async () => {
    const { body } = await json(`${b.url}/.well-known/openid-configuration`);
    expect(body).to.include({ issuer: a.url, token_endpoint: `${b.url}/token` });
  });

  it('runs authorization code + PKCE headless (skip-prompt, login_hint), then /me and refresh', async () => {
    const config = await discover(a);
    const { tokens } = await headlessLogin(config, a, { scope: 'openid email offline_access', loginHint: 'bob' });
    expect(tokens.claims()).to.include({ sub: 'bob', iss: a.issuer, aud: 'edge-client' });
    expect(await oidc.fetchUserInfo(config, tokens.access_token, 'bob')).to.include({
      sub: 'bob',
      email: 'bob@example.com',
    });
    expect(tokens.refresh_token).to.be.a('string');
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.access_token).to.be.a('string').and.not.equal(tokens.access_token);
    expect(refreshed.claims()).to.include({ sub: 'bob' });
  });

  it('registers a client with the initial access token, then reads, replaces and deletes it (RFC 7591/7592)', async () => {
    const denied = await fetch(`${a.url}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [REDIRECT] }),
    });
    expect(denied.status).to.equal(401);
    const registered = await oidc.dynamicClientRegistration(
      new URL(a.issuer),
      { redirect_uris: [REDIRECT], client_name: 'Edge app' },
      undefined,
      {
        ...insecure,
        initialAccessToken: 'edge-iat',
      },
    );
    const {
      client_id: clientId,
      client_secret: secret,
      registration_client_uri: uri,
      registration_access_token: rat,
    } = registered.clientMetadata() as Record<string, string>;
    const auth = { authorization: `Bearer ${rat}` };

    // The registered client works at once, and on the other instance too.
    const config = await discoverInstance(b, clientId, secret);
    const { tokens } = await headlessLogin(config, b, { redirectUri: REDIRECT });
    expect(tokens.claims()!.aud).to.equal(clientId);

    const read = await fetch(uri, { headers: auth });
    expect(read.status).to.equal(200);
    expect(await read.json()).to.include({ client_id: clientId, client_name: 'Edge app' });
    const put = await fetch(uri, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        client_id: clientId,
        redirect_uris: ['http://127.0.0.1:9/other'],
        client_name: 'Renamed',
      }),
    });
    expect(put.status).to.equal(200);
    expect(await put.json()).to.include({ client_name: 'Renamed' });
    expect((await fetch(uri, { method: 'DELETE', headers: auth })).status).to.equal(204);
    expect((await fetch(uri, { headers: auth })).status).to.equal(401);
  });

  it('logs out at /session/end (RP-initiated): back to the registered post-logout URI with the state', async () => {
    const config = await discover(a);
    const browser = new Browser(a.url);
    const { tokens } = await headlessLogin(config, a, {}, browser);
    const landed = await browser.go(
      oidc.buildEndSessionUrl(config, {
        id_token_hint: tokens.id_token!,
        post_logout_redirect_uri: AFTER_LOGOUT,
        state: 'st-7',
      }).href,
    );
    expect(landed.status).to.equal(0);
    expect(landed.url).to.equal(`${AFTER_LOGOUT}?state=st-7`);
    const rejected = await browser.go(
      oidc.buildEndSessionUrl(config, {
        id_token_hint: tokens.id_token!,
        post_logout_redirect_uri: 'https://evil.example/',
        state: 'x',
      }).href,
    );
    expect(rejected.status).to.equal(400);
  });

  it('sends back-channel logout (a signed logout token) to a relying party on loopback before redirecting', async () => {
    const receiver = await startBackchannelReceiver();
    try {
      const registered = await oidc.dynamicClientRegistration(
        new URL(a.issuer),
        {
          redirect_uris: [REDIRECT],
          post_logout_redirect_uris: [AFTER_LOGOUT],
          backchannel_logout_uri: receiver.uri,
          backchannel_logout_session_required: true,
        },
        undefined,
        { ...insecure, initialAccessToken: 'edge-iat' },
      );
      const { client_id: clientId, client_secret: secret } = registered.clientMetadata() as Record<string, string>;
      const config = await discoverInstance(a, clientId, secret);
      const browser = new Browser(a.url);
      const { tokens } = await headlessLogin(config, a, { redirectUri: REDIRECT }, browser);
      const landed = await browser.go(
        oidc.buildEndSessionUrl(config, {
          id_token_hint: tokens.id_token!,
          post_logout_redirect_uri: AFTER_LOGOUT,
          state: 'bc',
        }).href,
      );
      expect(landed.url).to.equal(`${AFTER_LOGOUT}?state=bc`);
      expect(receiver.tokens).to.have.length(1);
      const jwks = createLocalJWKSet((await json(`${a.url}/jwks`)).body as unknown as JSONWebKeySet);
      const { payload } = await jwtVerify(receiver.tokens[0], jwks, {
        issuer: a.issuer,
        audience: clientId,
        typ: 'logout+jwt',
      });
      expect(payload).to.include({ sub: 'alice', sid: tokens.claims()!.sid });
    } finally {
      await receiver.close();
    }
  });

  it('answers /healthz and /readyz with the oidc and db (SELECT 1) checks', async () => {
    expect(await json(`${a.url}/healthz`)).to.deep.equal({ status: 200, body: { status: 'ok' } });
    expect(await json(`${a.url}/readyz`)).to.deep.equal({
      status: 200,
      body: { status: 'ok', checks: { oidc: { status: 'ok' }, db: { status: 'ok' } } },
    });
  });

  it('serves the same signing keys from both instances (created once, kept in D1)', async () => {
    const [ka, kb] = await Promise.all([json(`${a.url}/jwks`), json(`${b.url}/jwks`)]);
    expect(ka.body).to.deep.equal(kb.body);
    expect((ka.body.keys as { kty: string; d?: string }[]).map((k) => k.kty)).to.deep.equal(['RSA', 'EC']);
    for (const key of ka.body.keys as { d?: string }[]) expect(key).to.not.have.property('d');
  });

  it('lets each instance verify, introspect and refresh the tokens the other issued', async () => {
    const configA = await discoverInstance(a);
    const configB = await discoverInstance(b);
    for (const [issuerSide, verifierSide, verifierConfig] of [
      [a, b, configB],
      [b, a, configA],
    ] as const) {
      const { tokens } = await headlessLogin(issuerSide === a ? configA : configB, issuerSide, {
        scope: 'openid email offline_access',
        loginHint: 'alice',
      });
      const jwks = createLocalJWKSet((await json(`${verifierSide.url}/jwks`)).body as unknown as JSONWebKeySet);
      const { payload } = await jwtVerify(tokens.id_token!, jwks, { issuer: a.issuer, audience: 'edge-client' });
      expect(payload.sub).to.equal('alice');
      expect(await oidc.tokenIntrospection(verifierConfig, tokens.access_token)).to.include({
        active: true,
        sub: 'alice',
        client_id: 'edge-client',
      });
      expect(await oidc.fetchUserInfo(verifierConfig, tokens.access_token, 'alice')).to.include({
        email: 'alice@example.com',
      });
      const refreshed = await oidc.refreshTokenGrant(verifierConfig, tokens.refresh_token!);
      expect(refreshed.claims()).to.include({ sub: 'alice', iss: a.issuer });
    }
  });
});

describe('idp worker: without its D1 binding', function () {
  this.timeout(60000);
  let idp: RunningIdp;
  before(async () => {
    idp = await startWorkerIdp({ vars: { IDP_LOG_LEVEL: 'silent' }, withD1: false });
  });
  after(() => idp?.close());

  it('is alive but not ready: /readyz is 503 with the db check naming the missing binding', async () => {
    expect(await json(`${idp.url}/healthz`)).to.deep.equal({ status: 200, body: { status: 'ok' } });
    const ready = await json(`${idp.url}/readyz`);
    expect(ready.status).to.equal(503);
    expect(ready.body.status).to.equal('error');
    expect((ready.body.checks as Record<string, { status: string; error: string }>).db).to.deep.include({
      status: 'error',
    });
    expect((ready.body.checks as Record<string, { error: string }>).db.error).to.match(/D1 binding "DB"/);
  });

  it('answers other paths with a 503 OAuth error rather than crashing', async () => {
    const { status, body } = await json(`${idp.url}/.well-known/openid-configuration`);
    expect(status).to.equal(503);
    expect(body.error).to.equal('temporarily_unavailable');
  });
});

describe('idp worker: invalid variables', function () {
  this.timeout(60000);
  let idp: RunningIdp;
  before(async () => {
    idp = await startWorkerIdp({
      vars: { IDP_LOG_LEVEL: 'silent', IDP_JWKS_FILE: 'keys.json', IDP_SKIP_PROMPT: 'sometimes' },
    });
  });
  after(() => idp?.close());

  it('reports every problem in the oidc readiness check instead of serving a half-configured provider', async () => {
    const ready = await json(`${idp.url}/readyz`);
    expect(ready.status).to.equal(503);
    const oidcCheck = (ready.body.checks as Record<string, { status: string; error: string }>).oidc;
    expect(oidcCheck.status).to.equal('error');
    expect(oidcCheck.error).to.match(/^invalid worker variables: .*IDP_SKIP_PROMPT/);
    expect((await fetch(`${idp.url}/.well-known/openid-configuration`)).status).to.equal(503);
  });
});

describe('idp worker: JWT access tokens (IDP_ACCESS_TOKEN_FORMAT=jwt)', function () {
  this.timeout(60000);
  let idp: RunningIdp;
  before(async () => {
    idp = await startWorkerIdp({
      vars: { ...VARS, IDP_ACCESS_TOKEN_FORMAT: 'jwt', IDP_DEFAULT_AUDIENCE: 'https://api.example.dev' },
    });
  });
  after(() => idp?.close());

  it('issues RFC 9068 access tokens signed with the JWKS it serves, accepted at /me', async () => {
    const config = await discoverInstance(idp);
    const { tokens } = await headlessLogin(config, idp, { scope: 'openid email', loginHint: 'alice' });
    const jwks = createLocalJWKSet((await json(`${idp.url}/jwks`)).body as unknown as JSONWebKeySet);
    const { payload, protectedHeader } = await jwtVerify(tokens.access_token, jwks, {
      issuer: idp.issuer,
      audience: 'https://api.example.dev',
      typ: 'at+jwt',
    });
    expect(protectedHeader.alg).to.equal('RS256');
    expect(payload).to.include({ sub: 'alice', client_id: 'edge-client' });
    expect(await oidc.fetchUserInfo(config, tokens.access_token, 'alice')).to.include({ email: 'alice@example.com' });
  });
});

describe('idp worker: created from createIdp options (how the Node relying-party tests can target it)', function () {
  this.timeout(60000);
  let idp: RunningIdp;
  before(async () => {
    idp = await createWorkerIdp({
      port: 0,
      publicClient: true,
      redirectUris: [REDIRECT],
      skipPrompt: true,
      users: [{ sub: 'dana', email: 'dana@example.com' }],
    });
  });
  after(() => idp?.close());

  it('runs the relying-party helpers unchanged: a public client with PKCE, the user chosen by default', async () => {
    const config = await discover(idp);
    const { tokens } = await headlessLogin(config, idp, { scope: 'openid email' });
    expect(tokens.claims()).to.include({ sub: 'dana', aud: idp.client.clientId });
    expect(idp.client.clientSecret).to.equal(undefined);
    expect(await oidc.fetchUserInfo(config, tokens.access_token, 'dana')).to.include({ email: 'dana@example.com' });
  });

  it('refuses options that only exist in-process', async () => {
    let error: Error | undefined;
    await createWorkerIdp({ jwks: { keys: [] } }).catch((e: Error) => (error = e));
    expect(error?.message).to.equal('not available on the worker: jwks');
  });
});

describe('idp worker: request bodies', function () {
  this.timeout(60000);
  let idp: RunningIdp;
  before(async () => {
    idp = await startWorkerIdp({ vars: { ...VARS } });
  });
  after(() => idp?.close());

  it('answers oversized bodies sent at once with 400 invalid_request, never a reset connection', async () => {
    const huge = JSON.stringify({ redirect_uris: [REDIRECT], client_name: 'x'.repeat(200_000) });
    const statuses = await Promise.all(
      Array.from({ length: 12 }, () =>
        fetch(`${idp.url}/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer edge-iat' },
          body: huge,
        }).then(
          (r) => r.status,
          (e: Error & { cause?: { code?: string } }) => `${e.message} ${e.cause?.code ?? ''}`,
        ),
      ),
    );
    expect(statuses).to.deep.equal(Array(12).fill(400));
  });

  it('reads a body over 1 MiB to its end, answers 413 invalid_request, and keeps serving', async () => {
    const response = await fetch(`${idp.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `pad=${'y'.repeat(1_500_000)}`,
    });
    expect(response.status).to.equal(413);
    expect(await response.json()).to.include({ error: 'invalid_request' });
    expect((await fetch(`${idp.url}/healthz`)).status).to.equal(200);
  });
});
