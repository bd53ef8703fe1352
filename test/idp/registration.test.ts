import { expect } from 'chai';
import * as oidc from 'openid-client';
import { createIdp, type RunningIdp } from '../../idp/create-idp.js';
import { discover, headlessLogin, insecure } from './support/relying-party.js';

const REDIRECT = 'http://127.0.0.1:9/callback';

async function manage(uri: string, method: string, token?: string, body?: unknown) {
  const response = await fetch(uri, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined,
    headers: response.headers,
  };
}

describe('idp: dynamic client registration (RFC 7591) and management (RFC 7592)', () => {
  describe('without an initial access token', () => {
    let idp: RunningIdp;
    before(async () => {
      idp = await createIdp({ port: 0, enableRegistration: true, skipPrompt: true });
    });
    after(() => idp.close());

    it('registers at /register with the seed defaults and returns the management credentials', async () => {
      const registered = await oidc.dynamicClientRegistration(
        new URL(idp.issuer),
        { redirect_uris: [REDIRECT], client_name: 'Demo app' },
        undefined,
        insecure,
      );
      const metadata = registered.clientMetadata();
      expect(metadata).to.include({
        client_name: 'Demo app',
        registration_client_uri: `${idp.issuer}/register/${metadata.client_id}`,
      });
      expect(metadata.grant_types).to.deep.equal(['authorization_code']);
      expect(metadata.response_types).to.deep.equal(['code']);
      expect(metadata.client_secret).to.be.a('string');
      expect(metadata.registration_access_token).to.be.a('string');

      // The registered client really works.
      const config = await discover(
        idp,
        metadata.client_id,
        metadata.client_secret,
        oidc.ClientSecretBasic(metadata.client_secret),
      );
      const { tokens } = await headlessLogin(config, idp, { redirectUri: REDIRECT });
      expect(tokens.claims()!.aud).to.equal(metadata.client_id);
    });

    it('reads, replaces (PUT is a full replacement) and deletes a registration with its registration access token', async () => {
      const registered = await oidc.dynamicClientRegistration(
        new URL(idp.issuer),
        {
          redirect_uris: [REDIRECT],
          client_name: 'Before',
          grant_types: ['authorization_code', 'refresh_token'],
          contacts: ['ops@example.com'],
        },
        undefined,
        insecure,
      );
      const {
        client_id: clientId,
        client_secret: secret,
        registration_client_uri: uri,
        registration_access_token: rat,
      } = registered.clientMetadata() as Record<string, string>;

      const read = await manage(uri, 'GET', rat);
      expect(read.status).to.equal(200);
      expect(read.body).to.include({ client_id: clientId, client_name: 'Before' });

      const put = await manage(uri, 'PUT', rat, {
        client_id: clientId,
        redirect_uris: ['http://127.0.0.1:9/other'],
        client_name: 'After',
      });
      expect(put.status).to.equal(200);
      expect(put.body).to.include({ client_id: clientId, client_name: 'After', client_secret: secret });
      expect(put.body!.redirect_uris).to.deep.equal(['http://127.0.0.1:9/other']);
      // Fields left out of the PUT body are gone or back to their defaults, not merged.
      expect(put.body).to.not.have.property('contacts');
      expect(put.body!.grant_types).to.deep.equal(['authorization_code']);
      expect((await manage(uri, 'GET', rat)).body).to.include({ client_name: 'After' });

      const del = await manage(uri, 'DELETE', rat);
      expect(del.status).to.equal(204);
      expect((await manage(uri, 'GET', rat)).status).to.equal(401);
    });

    it('rejects management calls without or with a wrong registration access token', async () => {
      const registered = await oidc.dynamicClientRegistration(
        new URL(idp.issuer),
        { redirect_uris: [REDIRECT] },
        undefined,
        insecure,
      );
      const { registration_client_uri: uri, client_id: clientId } = registered.clientMetadata() as Record<
        string,
        string
      >;
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const body = method === 'PUT' ? { client_id: clientId, redirect_uris: [REDIRECT] } : undefined;
        const missing = await manage(uri, method, undefined, body);
        expect(missing.status, `${method} without token`).to.equal(401);
        expect(missing.body!.error).to.be.oneOf(['invalid_request', 'invalid_token']);
        const wrong = await manage(uri, method, 'not-the-token', body);
        expect(wrong.status, `${method} with a wrong token`).to.equal(401);
        expect(wrong.body!.error).to.equal('invalid_token');
        expect(wrong.headers.get('www-authenticate')).to.match(/^Bearer /);
      }
    });

    it('does not let one client manage another with its own registration access token', async () => {
      const a = (
        await oidc.dynamicClientRegistration(new URL(idp.issuer), { redirect_uris: [REDIRECT] }, undefined, insecure)
      ).clientMetadata();
      const b = (
        await oidc.dynamicClientRegistration(new URL(idp.issuer), { redirect_uris: [REDIRECT] }, undefined, insecure)
      ).clientMetadata();
      const hijack = await manage(b.registration_client_uri as string, 'DELETE', a.registration_access_token as string);
      expect(hijack.status).to.equal(401);
      expect(
        (await manage(b.registration_client_uri as string, 'GET', b.registration_access_token as string)).status,
      ).to.equal(200);
    });

    it('answers invalid_redirect_uri / invalid_client_metadata for bad metadata', async () => {
      const noRedirect = await manage(`${idp.issuer}/register`, 'POST', undefined, { client_name: 'x' });
      expect(noRedirect.status).to.equal(400);
      expect(noRedirect.body!.error).to.match(/^invalid_(redirect_uri|client_metadata)$/);
      const badGrant = await manage(`${idp.issuer}/register`, 'POST', undefined, {
        redirect_uris: [REDIRECT],
        grant_types: ['password'],
      });
      expect(badGrant.status).to.equal(400);
      expect(badGrant.body!.error).to.equal('invalid_client_metadata');
    });
  });

  describe('with --registration-initial-access-token', () => {
    let idp: RunningIdp;
    before(async () => {
      idp = await createIdp({ port: 0, enableRegistration: true, registrationInitialAccessToken: 'let-me-in' });
    });
    after(() => idp.close());

    it('registers with the initial access token', async () => {
      const registered = await oidc.dynamicClientRegistration(
        new URL(idp.issuer),
        { redirect_uris: [REDIRECT] },
        undefined,
        { ...insecure, initialAccessToken: 'let-me-in' },
      );
      expect(registered.clientMetadata().client_id).to.be.a('string');
    });

    it('refuses registration without it or with a wrong one', async () => {
      for (const token of [undefined, 'guess']) {
        let failure: unknown;
        await oidc
          .dynamicClientRegistration(new URL(idp.issuer), { redirect_uris: [REDIRECT] }, undefined, {
            ...insecure,
            ...(token ? { initialAccessToken: token } : {}),
          })
          .catch((e) => (failure = e));
        expect(failure, String(token)).to.be.instanceOf(Error);
        const direct = await manage(`${idp.issuer}/register`, 'POST', token, { redirect_uris: [REDIRECT] });
        expect(direct.status).to.be.oneOf([400, 401]);
        expect(direct.body!.error).to.be.oneOf(['invalid_request', 'invalid_token']);
      }
    });
  });

  describe('when not enabled', () => {
    it('serves no registration endpoint', async () => {
      const idp = await createIdp({ port: 0 });
      try {
        const config = await oidc.discovery(new URL(idp.issuer), 'x', undefined, undefined, insecure);
        expect(config.serverMetadata().registration_endpoint).to.equal(undefined);
        expect(
          (
            await fetch(`${idp.issuer}/register`, {
              method: 'POST',
              body: '{}',
              headers: { 'content-type': 'application/json' },
            })
          ).status,
        ).to.equal(404);
      } finally {
        await idp.close();
      }
    });
  });
});
