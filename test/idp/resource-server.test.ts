import { expect } from 'chai';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { createIdp, type RunningIdp } from '../../idp/create-idp.js';
import { discover, headlessLogin } from './support/relying-party.js';

const REDIRECT = 'http://127.0.0.1:9/callback';
const API = 'http://127.0.0.1:3000/api/v1';

describe('idp: access tokens', () => {
  describe('with --access-token-format jwt and --default-audience', () => {
    let idp: RunningIdp;
    before(async () => {
      idp = await createIdp({
        port: 0,
        redirectUris: [REDIRECT],
        skipPrompt: true,
        accessTokenFormat: 'jwt',
        defaultAudience: API,
      });
    });
    after(() => idp.close());

    async function verify(token: string, audience: string) {
      const jwks = createRemoteJWKSet(new URL(`${idp.issuer}/jwks`));
      return jwtVerify(token, jwks, { issuer: idp.issuer, audience, typ: 'at+jwt' });
    }

    it('issues RFC 9068 access tokens that verify against /jwks with iss, aud, exp, scope, client_id and identity claims', async () => {
      const config = await discover(idp);
      const { tokens } = await headlessLogin(config, idp, {
        scope: 'openid email registrations:read registrations:write',
      });
      expect(decodeProtectedHeader(tokens.access_token).typ).to.equal('at+jwt');
      const { payload } = await verify(tokens.access_token, API);
      expect(payload).to.include({
        iss: idp.issuer,
        aud: API,
        client_id: idp.client.clientId,
        sub: 'alice',
        email: 'alice@example.com',
      });
      expect(payload.exp)
        .to.be.a('number')
        .above(Math.floor(Date.now() / 1000));
      expect(String(payload.scope).split(' ')).to.include.members(['registrations:read', 'registrations:write']);
    });

    it("answers /me with the user's claims for a JWT access token, as for an opaque one", async () => {
      const config = await discover(idp);
      const { tokens } = await headlessLogin(config, idp, { scope: 'openid email' });
      const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, 'alice');
      expect(userinfo).to.deep.equal({ sub: 'alice', email: 'alice@example.com', email_verified: true });
    });

    it('refuses at /me a JWT access token that does not verify, or was issued without openid', async () => {
      const config = await discover(idp);
      const { tokens } = await headlessLogin(config, idp, { scope: 'openid email' });
      const [h, p] = tokens.access_token.split('.');
      const forged = `${h}.${p}.${Buffer.from('x'.repeat(64)).toString('base64url')}`;
      const m2m = await oidc.clientCredentialsGrant(config, { scope: 'registrations:read' });
      for (const token of [forged, m2m.access_token]) {
        const response = await fetch(`${idp.issuer}/me`, { headers: { authorization: `Bearer ${token}` } });
        expect(response.status).to.equal(401);
        expect(response.headers.get('www-authenticate')).to.match(/error="invalid_token"/);
      }
    });

    it('keeps issuing JWT access tokens for the same audience on refresh', async () => {
      const config = await discover(idp);
      const { tokens } = await headlessLogin(config, idp, { scope: 'openid offline_access registrations:read' });
      const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
      const { payload } = await verify(refreshed.access_token, API);
      expect(payload).to.include({ sub: 'alice', client_id: idp.client.clientId });
    });

    it('uses the requested resource as the audience when the client names one', async () => {
      const config = await discover(idp);
      const other = 'https://api.example.com/';
      const { tokens } = await headlessLogin(config, idp, { scope: 'openid registrations:read', resource: other });
      const { payload } = await verify(tokens.access_token, other);
      expect(payload.aud).to.equal(other);
    });

    it('issues JWT access tokens for client credentials too', async () => {
      const config = await discover(idp);
      const tokens = await oidc.clientCredentialsGrant(config, { scope: 'registrations:read' });
      const { payload } = await verify(tokens.access_token, API);
      expect(payload).to.include({ client_id: idp.client.clientId, scope: 'registrations:read' });
    });

    it('issues tokens whose signature is really checked: a tampered signature fails verification', async () => {
      const config = await discover(idp);
      const { tokens } = await headlessLogin(config, idp, { scope: 'openid registrations:read' });
      const [h, p] = tokens.access_token.split('.');
      const forged = `${h}.${p}.${Buffer.from('not-a-signature').toString('base64url')}`;
      let failure: unknown;
      await verify(forged, API).catch((e) => (failure = e));
      expect(failure).to.be.instanceOf(Error);
    });
  });

  describe('with --access-token-format jwt and no audience configured', () => {
    let idp: RunningIdp;
    before(async () => {
      idp = await createIdp({ port: 0, redirectUris: [REDIRECT], skipPrompt: true, accessTokenFormat: 'jwt' });
    });
    after(() => idp.close());

    it('still issues a JWT, with the issuer as audience', async () => {
      const config = await discover(idp);
      const { tokens } = await headlessLogin(config, idp, { scope: 'openid' });
      const { payload } = await jwtVerify(tokens.access_token, createRemoteJWKSet(new URL(`${idp.issuer}/jwks`)), {
        issuer: idp.issuer,
        audience: idp.issuer,
        typ: 'at+jwt',
      });
      expect(payload.sub).to.equal('alice');
    });
  });

  describe('by default (opaque)', () => {
    let idp: RunningIdp;
    before(async () => {
      idp = await createIdp({ port: 0, redirectUris: [REDIRECT], skipPrompt: true });
    });
    after(() => idp.close());

    it('issues opaque tokens that introspect active, then inactive after revocation', async () => {
      const config = await discover(idp);
      const { tokens } = await headlessLogin(config, idp, { scope: 'openid email offline_access' });
      expect(tokens.access_token.split('.')).to.have.length(1);
      const active = await oidc.tokenIntrospection(config, tokens.access_token);
      expect(active).to.include({ active: true, sub: 'alice', client_id: idp.client.clientId, iss: idp.issuer });
      await oidc.tokenRevocation(config, tokens.access_token);
      const revoked = await oidc.tokenIntrospection(config, tokens.access_token);
      expect(revoked.active).to.equal(false);
    });

    it('revokes refresh tokens', async () => {
      const config = await discover(idp);
      const { tokens } = await headlessLogin(config, idp, { scope: 'openid offline_access' });
      expect((await oidc.tokenIntrospection(config, tokens.refresh_token!)).active).to.equal(true);
      await oidc.tokenRevocation(config, tokens.refresh_token!);
      expect((await oidc.tokenIntrospection(config, tokens.refresh_token!)).active).to.equal(false);
      let failure: unknown;
      await oidc.refreshTokenGrant(config, tokens.refresh_token!).catch((e) => (failure = e));
      expect((failure as oidc.ResponseBodyError).error).to.equal('invalid_grant');
    });

    it('introspects a garbage token as inactive', async () => {
      const config = await discover(idp);
      expect((await oidc.tokenIntrospection(config, 'not-a-token')).active).to.equal(false);
    });

    it('binds tokens to --default-audience without making them JWTs', async () => {
      const withAudience = await createIdp({
        port: 0,
        redirectUris: [REDIRECT],
        skipPrompt: true,
        defaultAudience: API,
      });
      try {
        const config = await discover(withAudience);
        const tokens = await oidc.clientCredentialsGrant(config, { scope: 'registrations:read' });
        expect(tokens.access_token.split('.')).to.have.length(1);
        const introspected = await oidc.tokenIntrospection(config, tokens.access_token);
        expect(introspected).to.include({ active: true, aud: API, scope: 'registrations:read' });
      } finally {
        await withAudience.close();
      }
    });
  });
});
