import { expect } from 'chai';
import { decodeJwt } from 'jose';
import * as oidc from 'openid-client';
import { createIdp, type RunningIdp } from '../../idp/create-idp.js';
import { discover, headlessLogin } from './support/relying-party.js';

const REDIRECT = 'http://127.0.0.1:9/callback';
const EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN = 'urn:ietf:params:oauth:token-type:access_token';
const DOWNSTREAM = 'https://downstream.example.test/api';

for (const accessTokenFormat of ['opaque', 'jwt'] as const) {
  describe(`idp: token exchange (RFC 8693, --enable-token-exchange), ${accessTokenFormat} access tokens`, () => {
    let idp: RunningIdp;
    let config: oidc.Configuration;
    let subjectToken: string;
    before(async () => {
      idp = await createIdp({
        port: 0,
        redirectUris: [REDIRECT],
        skipPrompt: true,
        accessTokenFormat,
        enableTokenExchange: true,
        resources: [DOWNSTREAM, 'https://api.example.test/'],
        defaultAudience: 'https://api.example.test/',
      });
      config = await discover(idp);
      const { tokens } = await headlessLogin(config, idp, {
        scope: 'openid profile registrations:read registrations:write',
      });
      subjectToken = tokens.access_token;
    });
    after(() => idp.close());

    const exchange = (parameters: Record<string, string>) =>
      oidc.genericGrantRequest(config, EXCHANGE, {
        subject_token: subjectToken,
        subject_token_type: ACCESS_TOKEN,
        ...parameters,
      });

    it('exchanges a user’s access token for one for another resource, narrowed to the scopes asked', async () => {
      const exchanged = await exchange({ resource: DOWNSTREAM, scope: 'registrations:read' });
      expect(exchanged).to.include({ issued_token_type: ACCESS_TOKEN, scope: 'registrations:read' });
      if (accessTokenFormat === 'jwt') {
        const claims = decodeJwt(exchanged.access_token);
        expect(claims).to.include({ sub: 'alice', aud: DOWNSTREAM, scope: 'registrations:read' });
      } else {
        const introspected = await oidc.tokenIntrospection(config, exchanged.access_token);
        expect(introspected).to.include({ active: true, sub: 'alice', scope: 'registrations:read', aud: DOWNSTREAM });
      }
    });

    it('keeps the subject token’s scopes when none are asked, and never widens them (invalid_scope)', async () => {
      const same = await exchange({ audience: DOWNSTREAM });
      expect(same.scope!.split(' ').sort()).to.deep.equal(
        ['openid', 'profile', 'registrations:read', 'registrations:write'].sort(),
      );
      try {
        await exchange({ resource: DOWNSTREAM, scope: 'registrations:read gatehouse:admin' });
        expect.fail('a wider scope should be refused');
      } catch (error) {
        expect((error as { error?: string }).error).to.equal('invalid_scope');
      }
    });

    it('refuses a subject token it did not issue, and a resource it does not serve', async () => {
      for (const [parameters, code] of [
        [{ subject_token: 'not-a-token' }, 'invalid_grant'],
        [{ resource: 'https://elsewhere.example.test/' }, 'invalid_target'],
        [{ subject_token_type: 'urn:ietf:params:oauth:token-type:id_token' }, 'invalid_request'],
      ] as const) {
        try {
          await exchange(parameters);
          expect.fail(`${JSON.stringify(parameters)} should be refused`);
        } catch (error) {
          expect((error as { error?: string }).error, JSON.stringify(parameters)).to.equal(code);
        }
      }
    });
  });
}

describe('idp: token exchange is only for clients allowed it', () => {
  it('refuses a client without the grant (oidc-provider answers invalid_request), and nothing advertises it when off', async () => {
    const idp = await createIdp({
      port: 0,
      enableTokenExchange: true,
      clients: [
        {
          client_id: 'plain',
          client_secret: 'plain-secret-0123456789',
          grant_types: ['client_credentials'],
          redirect_uris: [],
          response_types: [],
        },
      ],
    });
    const off = await createIdp({ port: 0 });
    try {
      const config = await discover(idp, 'plain', 'plain-secret-0123456789');
      expect(config.serverMetadata().grant_types_supported).to.include(EXCHANGE);
      try {
        await oidc.genericGrantRequest(config, EXCHANGE, { subject_token: 'x', subject_token_type: ACCESS_TOKEN });
        expect.fail('the client has no token-exchange grant');
      } catch (error) {
        expect((error as { error_description?: string }).error_description).to.equal(
          'requested grant type is not allowed for this client',
        );
      }
      expect((await discover(off)).serverMetadata().grant_types_supported).to.not.include(EXCHANGE);
    } finally {
      await idp.close();
      await off.close();
    }
  });
});
