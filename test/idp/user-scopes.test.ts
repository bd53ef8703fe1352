import { expect } from 'chai';
import * as oidc from 'openid-client';
import type { IdpUser } from '../../idp/accounts.js';
import { createIdp, type RunningIdp } from '../../idp/create-idp.js';
import { Browser } from './support/browser.js';
import { discover, headlessLogin } from './support/relying-party.js';

const REDIRECT = 'http://127.0.0.1:9/callback';
const API_SCOPES = ['openid', 'profile', 'offline_access', 'registrations:read', 'registrations:write'];
const EVERYTHING = 'openid profile registrations:read gatehouse:review gatehouse:admin';

describe('idp: scopes and roles per user', () => {
  let idp: RunningIdp;
  let config: oidc.Configuration;
  before(async () => {
    idp = await createIdp({
      port: 0,
      redirectUris: [REDIRECT],
      skipPrompt: true,
      enableTestingApi: true,
      users: [
        { sub: 'alice', email: 'alice@example.com', scopes: API_SCOPES, roles: ['developer'], groups: ['team-a'] },
        { sub: 'rita', email: 'rita@example.com', roles: ['reviewer', 'admin'] },
      ],
    });
    config = await discover(idp);
  });
  after(() => idp.close());
  afterEach(() => idp.testing!.reset());

  const granted = (tokens: { scope?: string }) => (tokens.scope ?? '').split(' ').sort();

  it('never grants a user a scope their scopes leave out, whatever the client asks', async () => {
    const { tokens } = await headlessLogin(config, idp, { loginHint: 'alice', scope: EVERYTHING });
    expect(granted(tokens)).to.deep.equal(['openid', 'profile', 'registrations:read']);
    const introspected = await oidc.tokenIntrospection(config, tokens.access_token);
    expect(String(introspected.scope).split(' ')).to.not.include.members(['gatehouse:admin']);
  });

  it('grants a user without scopes anything the provider accepts', async () => {
    const { tokens } = await headlessLogin(config, idp, { loginHint: 'rita', scope: EVERYTHING });
    expect(granted(tokens)).to.deep.equal(EVERYTHING.split(' ').sort());
  });

  it('releases roles and groups as claims, never the scopes list', async () => {
    const { tokens } = await headlessLogin(config, idp, { loginHint: 'alice', scope: 'openid profile' });
    const claims = await oidc.fetchUserInfo(config, tokens.access_token, 'alice');
    expect(claims).to.include({ sub: 'alice' });
    expect(claims.roles).to.deep.equal(['developer']);
    expect(claims.groups).to.deep.equal(['team-a']);
    expect(claims).to.not.have.property('scopes');
  });

  it('lets the testing API change a user’s scopes and roles for the next authorization, even in the same session', async () => {
    const browser = new Browser(new URL(idp.url).origin);
    const before = await headlessLogin(config, idp, { loginHint: 'alice', scope: EVERYTHING }, browser);
    expect(granted(before.tokens)).to.not.include('gatehouse:admin');

    await idp.testing!.setUser({
      sub: 'alice',
      scopes: [...API_SCOPES, 'gatehouse:admin'],
      claims: { roles: ['admin'] },
    });
    const widened = await headlessLogin(config, idp, { loginHint: 'alice', scope: EVERYTHING }, browser);
    expect(granted(widened.tokens)).to.include('gatehouse:admin').and.not.include('gatehouse:review');
    expect((await oidc.fetchUserInfo(config, widened.tokens.access_token, 'alice')).roles).to.deep.equal(['admin']);

    const response = await fetch(`${idp.url}/_testing/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sub: 'alice', scopes: ['openid'] }),
    });
    expect(response.status).to.equal(204);
    const narrowed = await headlessLogin(config, idp, { loginHint: 'alice', scope: EVERYTHING }, browser);
    expect(granted(narrowed.tokens)).to.deep.equal(['openid']);
  });

  it('refuses a testing API change naming a scope the provider does not accept', async () => {
    const response = await fetch(`${idp.url}/_testing/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sub: 'alice', scopes: ['gatehouse:admn'] }),
    });
    expect(response.status).to.equal(400);
    expect(((await response.json()) as { error_description: string }).error_description).to.include('gatehouse:admn');
  });
});

describe('idp: the users file’s scopes, roles and groups are checked at start', () => {
  it('refuses a user whose scopes the provider does not accept, naming them', async () => {
    try {
      await createIdp({ port: 0, users: [{ sub: 'alice', scopes: ['openid', 'gatehouse:admn'] }] });
      expect.fail('createIdp should have refused the user');
    } catch (error) {
      expect((error as { code?: string }).code).to.equal('invalid_settings');
      expect((error as Error).message)
        .to.include('user "alice"')
        .and.include('gatehouse:admn');
    }
  });

  it('refuses scopes, roles or groups that are not lists of strings', async () => {
    for (const bad of [{ scopes: 'openid' }, { roles: 'admin' }, { groups: [1] }]) {
      try {
        // Given as a users file would give them: not yet typed.
        await createIdp({ port: 0, users: [{ sub: 'alice', ...bad } as unknown as IdpUser] });
        expect.fail(`createIdp should have refused ${JSON.stringify(bad)}`);
      } catch (error) {
        expect((error as Error).message).to.match(/not a list of strings \(user 0\)/);
      }
    }
  });
});
