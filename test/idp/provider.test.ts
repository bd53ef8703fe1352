import { expect } from 'chai';
import * as oidc from 'openid-client';
import { createIdp, type RunningIdp } from '../../idp/create-idp.js';
import { ROUTES } from '../../idp/provider.js';
import { SERVICE_SCOPES } from '../../idp/settings.js';
import { Browser } from './support/browser.js';
import { discover, insecure } from './support/relying-party.js';

const REDIRECT = 'http://127.0.0.1:9/callback';

describe('idp: discovery and OAuth error handling', () => {
  let idp: RunningIdp;
  let metadata: oidc.ServerMetadata;
  before(async () => {
    idp = await createIdp({
      port: 0,
      redirectUris: [REDIRECT],
      enableRegistration: true,
      clientId: 'web',
      clientSecret: 'web-secret',
    });
    metadata = (await oidc.discovery(new URL(idp.issuer), 'web', 'web-secret', undefined, insecure)).serverMetadata();
  });
  after(() => idp.close());

  describe('GET /.well-known/openid-configuration', () => {
    it('names the seed endpoints at the seed paths', () => {
      expect(metadata).to.include({
        issuer: idp.issuer,
        authorization_endpoint: `${idp.issuer}/auth`,
        token_endpoint: `${idp.issuer}/token`,
        userinfo_endpoint: `${idp.issuer}/me`,
        jwks_uri: `${idp.issuer}/jwks`,
        end_session_endpoint: `${idp.issuer}/session/end`,
        registration_endpoint: `${idp.issuer}/register`,
        introspection_endpoint: `${idp.issuer}/token/introspection`,
        revocation_endpoint: `${idp.issuer}/token/revocation`,
      });
    });

    it('advertises the scopes, grants, PKCE method, signing algorithms and logout support the provider really has', () => {
      expect(metadata.scopes_supported).to.include.members([
        'openid',
        'offline_access',
        'profile',
        'email',
        ...SERVICE_SCOPES,
      ]);
      expect(metadata.grant_types_supported).to.include.members([
        'authorization_code',
        'refresh_token',
        'client_credentials',
      ]);
      expect(metadata.response_types_supported).to.include('code');
      expect(metadata.code_challenge_methods_supported).to.deep.equal(['S256']);
      expect(metadata.id_token_signing_alg_values_supported).to.include.members(['RS256', 'ES256']);
      expect(metadata.token_endpoint_auth_methods_supported).to.include.members([
        'client_secret_basic',
        'client_secret_post',
        'none',
      ]);
      expect(metadata).to.include({ backchannel_logout_supported: true, backchannel_logout_session_supported: true });
      expect(metadata.claims_supported).to.include.members(['sub', 'email', 'name']);
    });

    it('serves every endpoint it advertises (none answers 404)', async () => {
      const endpoints = Object.entries(metadata).filter(
        ([key, value]) => (key.endsWith('_endpoint') || key === 'jwks_uri') && typeof value === 'string',
      );
      expect(endpoints.length).to.be.at.least(9);
      for (const [key, value] of endpoints) {
        const method = /token_endpoint|introspection|revocation|registration|pushed/.test(key) ? 'POST' : 'GET';
        const response = await fetch(value as string, { method, redirect: 'manual' });
        await response.body?.cancel();
        expect(response.status, `${key} ${method} ${value as string}`).to.not.equal(404);
        expect(response.status, `${key} ${method} ${value as string}`).to.be.below(500);
      }
      expect(Object.values(ROUTES)).to.include('/register');
    });

    it('is not cacheable by shared caches', async () => {
      const response = await fetch(`${idp.issuer}/.well-known/openid-configuration`);
      expect(response.headers.get('cache-control') ?? '').to.not.match(/public|max-age=[1-9]/);
    });

    it('publishes only public keys at /jwks', async () => {
      const { keys } = (await (await fetch(`${idp.issuer}/jwks`)).json()) as { keys: Record<string, unknown>[] };
      expect(keys).to.have.length.above(0);
      for (const key of keys) expect(key).to.not.have.any.keys('d', 'p', 'q', 'dp', 'dq', 'qi');
    });
  });

  describe('bad input never crashes and gets OAuth-conformant errors', () => {
    it('shows an error page (400, no stack) for an unknown client at /auth', async () => {
      const page = await new Browser(new URL(idp.url).origin).go(
        `${idp.issuer}/auth?client_id=nope&redirect_uri=${encodeURIComponent(REDIRECT)}&response_type=code&scope=openid`,
      );
      expect(page.status).to.equal(400);
      expect(page.html)
        .to.contain('invalid_client')
        .and.not.match(/at .+\.js:\d+/);
    });

    it('shows an error page for a redirect_uri that is not registered (never redirecting to it)', async () => {
      const page = await new Browser(new URL(idp.url).origin).go(
        `${idp.issuer}/auth?client_id=web&redirect_uri=${encodeURIComponent('https://evil.example/cb')}&response_type=code&scope=openid`,
      );
      expect(page.status).to.equal(400);
      expect(page.html).to.contain('invalid_redirect_uri');
    });

    it('redirects other authorization errors back to the client with state', async () => {
      const landed = await new Browser(new URL(idp.url).origin).go(
        `${idp.issuer}/auth?client_id=web&redirect_uri=${encodeURIComponent(REDIRECT)}&response_type=code&scope=openid&state=s1&code_challenge_method=plain&code_challenge=x`,
      );
      const callback = new URL(landed.url);
      expect(callback.searchParams.get('error')).to.equal('invalid_request');
      expect(callback.searchParams.get('state')).to.equal('s1');
    });

    it('answers invalid_client for a wrong secret at /token', async () => {
      const config = await discover(idp, 'web', 'wrong-secret');
      let failure: unknown;
      await oidc.clientCredentialsGrant(config, {}).catch((e) => (failure = e));
      expect(failure).to.be.instanceOf(oidc.ResponseBodyError);
      expect((failure as oidc.ResponseBodyError).error).to.equal('invalid_client');
      expect((failure as oidc.ResponseBodyError).status).to.equal(401);
    });

    it('answers invalid_client for an unknown client at /token', async () => {
      const config = await discover(idp, 'ghost', 'boo');
      let failure: unknown;
      await oidc.clientCredentialsGrant(config, {}).catch((e) => (failure = e));
      expect((failure as oidc.ResponseBodyError).error).to.equal('invalid_client');
    });

    it('answers invalid_grant for a made-up code', async () => {
      const response = await fetch(`${idp.issuer}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: 'made-up',
          redirect_uri: REDIRECT,
          client_id: 'web',
          client_secret: 'web-secret',
        }),
      });
      expect(response.status).to.equal(400);
      expect(await response.json()).to.include({ error: 'invalid_grant' });
    });

    it('answers invalid_request for malformed JSON at /register', async () => {
      const response = await fetch(`${idp.issuer}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"redirect_uris": [',
      });
      expect(response.status).to.equal(400);
      expect(await response.json()).to.include({ error: 'invalid_request' });
    });

    it('answers invalid_request for a body that is not JSON at /register', async () => {
      const response = await fetch(`${idp.issuer}/register`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: 'hello',
      });
      expect(response.status).to.equal(400);
      expect(await response.json()).to.include({ error: 'invalid_request' });
    });

    it('answers an oversized body with an OAuth error and keeps serving', async () => {
      const huge = JSON.stringify({ redirect_uris: [REDIRECT], client_name: 'x'.repeat(200_000) });
      const response = await fetch(`${idp.issuer}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: huge,
      });
      expect(response.status).to.equal(400);
      expect(await response.json()).to.include({ error: 'invalid_request' });
      const form = await fetch(`${idp.issuer}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `grant_type=client_credentials&pad=${'y'.repeat(200_000)}`,
      });
      expect(form.status).to.equal(400);
      expect((await fetch(`${idp.url}/healthz`)).status).to.equal(200);
    });

    it('answers invalid_token at /me without a valid token', async () => {
      const response = await fetch(`${idp.issuer}/me`, { headers: { authorization: 'Bearer nope' } });
      expect(response.status).to.equal(401);
      expect(response.headers.get('www-authenticate')).to.match(/error="invalid_token"/);
    });

    it('answers an expired or unknown interaction with an error page, not a 500', async () => {
      const page = await new Browser(new URL(idp.url).origin).go(`${idp.url}/interaction/unknown-uid`);
      expect(page.status).to.equal(400);
      expect(page.html).to.contain('invalid_request');
    });

    it('answers a malformed form post to an interaction without crashing', async () => {
      const response = await fetch(`${idp.url}/interaction/whatever/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'login=%E0%A4%A',
      });
      expect(response.status).to.be.within(400, 499);
    });
  });
});
