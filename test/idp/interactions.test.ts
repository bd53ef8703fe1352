import { expect } from 'chai';
import * as oidc from 'openid-client';
import { createIdp, type RunningIdp } from '../../idp/create-idp.js';
import { Browser } from './support/browser.js';
import { authorizationRequest, discover, exchange, headlessLogin, insecure } from './support/relying-party.js';

const REDIRECT = 'http://127.0.0.1:9/callback';
const users = [
  { sub: 'alice', email: 'alice@example.com', name: 'Alice', email_verified: true },
  { sub: 'bob', email: 'bob@example.com', name: 'Bob', preferred_username: 'bobby' },
];

describe('idp: authorization code flow', () => {
  describe('through the login and consent pages', () => {
    let idp: RunningIdp;
    before(async () => {
      idp = await createIdp({ port: 0, redirectUris: [REDIRECT], users });
    });
    after(() => idp.close());

    it('logs a user in by following the forms, then issues tokens, userinfo and a refresh token for offline_access', async () => {
      const config = await discover(idp);
      const request = authorizationRequest(config, idp, { scope: 'openid email profile offline_access' });
      const browser = new Browser(new URL(idp.url).origin);
      const loginPage = await browser.go((await request.url()).href);
      expect(loginPage.status).to.equal(200);
      expect(loginPage.html)
        .to.contain('Sign in')
        .and.not.match(/<(link|script)[^>]+(href|src)=/);
      const headers = (await fetch(loginPage.url, { headers: { cookie: browser.cookieHeader() } })).headers;
      expect(headers.get('content-security-policy'))
        .to.contain("default-src 'none'")
        .and.contain("frame-ancestors 'none'");
      const consent = await browser.submit(loginPage, /\/login$/, { login: 'bob@example.com' });
      expect(consent.html).to.contain('Allow access?').and.contain('offline_access');
      const landed = await browser.submit(consent, /\/confirm$/);
      expect(landed.url).to.match(/^http:\/\/127\.0\.0\.1:9\/callback\?code=/);

      const tokens = await exchange(config, landed.url, request);
      expect(tokens.claims()!.sub).to.equal('bob');
      expect(tokens.refresh_token).to.be.a('string');
      const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, 'bob');
      expect(userinfo).to.include({ sub: 'bob', email: 'bob@example.com', name: 'Bob' });

      const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
      expect(refreshed.access_token).to.be.a('string').and.not.equal(tokens.access_token);
      expect(refreshed.claims()!.sub).to.equal('bob');
    });

    it('re-renders the login page with a message when the typed user does not exist', async () => {
      const config = await discover(idp);
      const request = authorizationRequest(config, idp, {});
      const browser = new Browser(new URL(idp.url).origin);
      const page = await browser.go((await request.url()).href);
      const again = await browser.submit(page, /\/login$/, { login: 'mallory' });
      expect(again.status).to.equal(400);
      expect(again.html).to.contain('No configured user matches &quot;mallory&quot;');
    });

    it('sends access_denied back to the client when the user denies consent', async () => {
      const config = await discover(idp);
      const request = authorizationRequest(config, idp, { scope: 'openid email' });
      const browser = new Browser(new URL(idp.url).origin);
      const consent = await browser.submit(await browser.go((await request.url()).href), /\/login$/, {
        login: 'alice',
      });
      const landed = await browser.submit(consent, /\/abort$/);
      const callback = new URL(landed.url);
      expect(callback.searchParams.get('error')).to.equal('access_denied');
      expect(callback.searchParams.get('state')).to.equal(request.state);
    });

    it('does not issue a refresh token without offline_access', async () => {
      const config = await discover(idp);
      const request = authorizationRequest(config, idp, { scope: 'openid' });
      const browser = new Browser(new URL(idp.url).origin);
      const consent = await browser.submit(await browser.go((await request.url()).href), /\/login$/, {
        login: 'alice',
      });
      const landed = await browser.submit(consent, /\/confirm$/);
      const tokens = await exchange(config, landed.url, request);
      expect(tokens.refresh_token).to.equal(undefined);
    });
  });

  describe('headless with --skip-prompt', () => {
    let idp: RunningIdp;
    before(async () => {
      idp = await createIdp({ port: 0, redirectUris: [REDIRECT], users, skipPrompt: true });
    });
    after(() => idp.close());

    it('logs in the user named by login_hint (sub, email or preferred_username) without any page', async () => {
      const config = await discover(idp);
      for (const hint of ['bob', 'bob@example.com', 'bobby']) {
        const { tokens } = await headlessLogin(config, idp, { loginHint: hint });
        expect(tokens.claims()!.sub, hint).to.equal('bob');
      }
    });

    it('logs in the default user (the first one) without login_hint and refreshes with offline_access', async () => {
      const config = await discover(idp);
      const { tokens } = await headlessLogin(config, idp, { scope: 'openid offline_access' });
      expect(tokens.claims()!.sub).to.equal('alice');
      const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
      expect(refreshed.access_token).to.be.a('string');
    });

    it('answers a login_hint that matches nobody with an OAuth error redirect to the client', async () => {
      const config = await discover(idp);
      const request = authorizationRequest(config, idp, { loginHint: 'nobody@example.com' });
      const landed = await new Browser(new URL(idp.url).origin).go((await request.url()).href);
      const callback = new URL(landed.url);
      expect(callback.origin + callback.pathname).to.equal(REDIRECT);
      expect(callback.searchParams.get('error')).to.equal('invalid_request');
      expect(callback.searchParams.get('error_description')).to.contain('nobody@example.com');
      expect(callback.searchParams.get('state')).to.equal(request.state);
    });

    it('issues client credentials tokens to the configured client', async () => {
      const config = await discover(idp);
      const tokens = await oidc.clientCredentialsGrant(config, { scope: 'registrations:read' });
      expect(tokens.access_token).to.be.a('string');
      expect(tokens.token_type.toLowerCase()).to.equal('bearer');
      const introspected = await oidc.tokenIntrospection(config, tokens.access_token);
      expect(introspected).to.include({ active: true, client_id: idp.client.clientId, scope: 'registrations:read' });
    });

    it('accepts the client secret in the form body and in the Authorization header', async () => {
      const basic = await discover(idp, undefined, undefined, oidc.ClientSecretBasic(idp.client.clientSecret));
      const tokens = await oidc.clientCredentialsGrant(basic, {});
      expect(tokens.access_token).to.be.a('string');
    });
  });

  describe('public client', () => {
    let idp: RunningIdp;
    before(async () => {
      idp = await createIdp({
        port: 0,
        redirectUris: [REDIRECT],
        publicClient: true,
        skipPrompt: true,
        clientId: 'spa',
      });
    });
    after(() => idp.close());

    it('completes the flow with PKCE and no secret', async () => {
      const config = await discover(idp, 'spa', undefined, oidc.None());
      const { tokens } = await headlessLogin(config, idp);
      expect(tokens.claims()!.sub).to.equal('alice');
    });

    it('refuses an authorization request without PKCE', async () => {
      const config = await oidc.discovery(new URL(idp.issuer), 'spa', undefined, oidc.None(), insecure);
      const url = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'openid', state: 's1' });
      const landed = await new Browser(new URL(idp.url).origin).go(url.href);
      const callback = new URL(landed.url);
      expect(callback.searchParams.get('error')).to.equal('invalid_request');
      expect(callback.searchParams.get('error_description')).to.match(/PKCE/i);
    });
  });
});
