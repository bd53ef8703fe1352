import { expect } from 'chai';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { createIdp, type RunningIdp } from '../../idp/create-idp.js';
import { Browser } from './support/browser.js';
import { dropDatabase, mongoTestUrl } from './support/mongo.js';
import { discover, headlessLogin, insecure } from './support/relying-party.js';

const REDIRECT = 'http://127.0.0.1:9/callback';
const AFTER_LOGOUT = 'http://127.0.0.1:9/bye';

describe('idp: createIdp', () => {
  it('listens on a free port, reports url and issuer, and closes', async () => {
    const idp = await createIdp({ port: 0 });
    expect(idp.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(idp.issuer).to.equal(idp.url);
    expect(idp.discoveryUrl).to.equal(`${idp.url}/.well-known/openid-configuration`);
    expect(idp.client.clientId).to.match(/^dev-client-/);
    expect(idp.client.grantTypes).to.deep.equal(['client_credentials']);
    await idp.close();
    let failure: unknown;
    await fetch(`${idp.url}/healthz`).catch((e) => (failure = e));
    expect(failure).to.be.instanceOf(Error);
  });

  it('uses the issuer it is given for every token and endpoint', async () => {
    const first = await createIdp({ port: 0 });
    const port = new URL(first.url).port;
    await first.close();
    const idp = await createIdp({ port: Number(port), issuer: `http://localhost:${port}` });
    try {
      const metadata = (await (
        await fetch(`${idp.url}/.well-known/openid-configuration`, { headers: { host: `localhost:${port}` } })
      ).json()) as Record<string, string>;
      expect(metadata.issuer).to.equal(`http://localhost:${port}`);
    } finally {
      await idp.close();
    }
  });

  it('refuses to start on a port that is taken', async () => {
    const idp = await createIdp({ port: 0 });
    try {
      let failure: unknown;
      await createIdp({ port: Number(new URL(idp.url).port) }).catch((e) => (failure = e));
      expect((failure as NodeJS.ErrnoException).code).to.equal('EADDRINUSE');
    } finally {
      await idp.close();
    }
  });
});

describe('idp: full flow on MongoDB with a restart in the middle', function () {
  const url = mongoTestUrl('flow');
  let idp: RunningIdp | undefined;
  before(function () {
    if (!url) this.skip(); // reason printed once by mongoTestUrl: MONGODB_URI is not set
  });
  after(async () => {
    await idp?.close();
    if (url) await dropDatabase(url);
  });

  const start = (port: number) =>
    createIdp({
      port,
      databaseUrl: url,
      redirectUris: [REDIRECT],
      postLogoutRedirectUri: AFTER_LOGOUT,
      skipPrompt: true,
      enableRegistration: true,
    });

  it('keeps sessions, tokens, grants, clients, registrations and keys across a restart', async () => {
    idp = await start(0);
    const port = Number(new URL(idp.url).port);
    const clientBefore = idp.client;
    let config = await discover(idp);

    // Before the restart: login → code → tokens (with refresh), a registration, the signing key in use.
    const { tokens, browser } = await headlessLogin(config, idp, { scope: 'openid email offline_access' });
    expect((await oidc.tokenIntrospection(config, tokens.access_token)).active).to.equal(true);
    const registered = (
      await oidc.dynamicClientRegistration(
        new URL(idp.issuer),
        { redirect_uris: [REDIRECT], client_name: 'Persisted' },
        undefined,
        insecure,
      )
    ).clientMetadata() as Record<string, string>;
    const kidBefore = ((await (await fetch(`${idp.issuer}/jwks`)).json()) as { keys: { kid: string }[] }).keys[0].kid;

    await idp.close();
    idp = await start(port);
    config = await discover(idp);

    // Same generated client and same keys: the ID token from before still verifies.
    expect(idp.client.clientId).to.equal(clientBefore.clientId);
    expect(idp.client.clientSecret).to.equal(clientBefore.clientSecret);
    const { keys } = (await (await fetch(`${idp.issuer}/jwks`)).json()) as { keys: { kid: string }[] };
    expect(keys.map((k) => k.kid)).to.include(kidBefore);
    await jwtVerify(tokens.id_token!, createRemoteJWKSet(new URL(`${idp.issuer}/jwks`)), {
      issuer: idp.issuer,
      audience: idp.client.clientId,
    });

    // Tokens issued before the restart still introspect active, work at /me and refresh.
    expect(await oidc.tokenIntrospection(config, tokens.access_token)).to.include({ active: true, sub: 'alice' });
    expect(await oidc.fetchUserInfo(config, tokens.access_token, 'alice')).to.include({ email: 'alice@example.com' });
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect((await oidc.tokenIntrospection(config, refreshed.access_token)).active).to.equal(true);

    // The browser session survived too: a silent login succeeds without a page.
    const silent = await headlessLogin(config, idp, { scope: 'openid', extra: { prompt: 'none' } }, browser);
    expect(silent.tokens.claims()!.sub).to.equal('alice');

    // Registration management of the client registered before the restart.
    const read = await fetch(registered.registration_client_uri, {
      headers: { authorization: `Bearer ${registered.registration_access_token}` },
    });
    expect(await read.json()).to.include({ client_id: registered.client_id, client_name: 'Persisted' });
    const put = await fetch(registered.registration_client_uri, {
      method: 'PUT',
      headers: { authorization: `Bearer ${registered.registration_access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: registered.client_id, redirect_uris: [REDIRECT], client_name: 'Renamed' }),
    });
    expect(await put.json()).to.include({ client_name: 'Renamed' });
    const del = await fetch(registered.registration_client_uri, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${registered.registration_access_token}` },
    });
    expect(del.status).to.equal(204);

    // Logout ends the stored session and revokes its grant's tokens.
    const landed = await browser.go(
      oidc.buildEndSessionUrl(config, {
        id_token_hint: silent.tokens.id_token!,
        post_logout_redirect_uri: AFTER_LOGOUT,
        state: 'db',
      }).href,
    );
    expect(landed.url).to.equal(`${AFTER_LOGOUT}?state=db`);
    expect((await oidc.tokenIntrospection(config, silent.tokens.access_token)).active).to.equal(false);
    const after = new URL(
      (
        await new Browser(new URL(idp.url).origin).go(
          (
            await (async () =>
              oidc.buildAuthorizationUrl(config, {
                redirect_uri: REDIRECT,
                scope: 'openid',
                prompt: 'none',
                state: 's',
                code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
                code_challenge_method: 'S256',
              }))()
          ).href,
        )
      ).url,
    );
    expect(after.searchParams.get('error')).to.equal('login_required');
  });
});
