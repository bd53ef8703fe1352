import { expect } from 'chai';
import { createIdp, type RunningIdp } from '../../idp/create-idp.js';
import * as oidc from 'openid-client';
import { discover, headlessLogin } from './support/relying-party.js';

const REDIRECT = 'http://127.0.0.1:9/callback';
const PROTOCOL_CLAIMS = ['sub', 'iss', 'aud', 'exp', 'iat', 'nonce', 'at_hash', 'sid', 'auth_time', 'azp'];
const user = {
  sub: 'carol',
  email: 'carol@example.com',
  email_verified: true,
  name: 'Carol',
  given_name: 'Carol',
  phone_number: '+15550100',
  groups: ['admins'],
};

describe('idp: ID token claims', () => {
  let plain: RunningIdp;
  let rich: RunningIdp;
  before(async () => {
    [plain, rich] = await Promise.all([
      createIdp({ port: 0, redirectUris: [REDIRECT], skipPrompt: true, users: [user] }),
      createIdp({
        port: 0,
        redirectUris: [REDIRECT],
        skipPrompt: true,
        users: [user],
        idTokenIncludesUserinfoClaims: true,
      }),
    ]);
  });
  after(() => Promise.all([plain.close(), rich.close()]));

  it('carries only sub and protocol claims by default', async () => {
    const { tokens } = await headlessLogin(await discover(plain), plain, { scope: 'openid email profile' });
    const claims = tokens.claims()!;
    expect(claims.sub).to.equal('carol');
    expect(Object.keys(claims).filter((k) => !PROTOCOL_CLAIMS.includes(k))).to.deep.equal([]);
  });

  it('carries the email and profile claims of the granted scopes with --id-token-includes-userinfo-claims', async () => {
    const { tokens } = await headlessLogin(await discover(rich), rich, { scope: 'openid email profile' });
    expect(tokens.claims()).to.include({
      sub: 'carol',
      email: 'carol@example.com',
      email_verified: true,
      name: 'Carol',
      given_name: 'Carol',
    });
  });

  it('never releases claims of scopes that were not requested', async () => {
    const { tokens } = await headlessLogin(await discover(rich), rich, { scope: 'openid email' });
    expect(tokens.claims()).to.include({ email: 'carol@example.com' });
    expect(tokens.claims()).to.not.have.any.keys('name', 'given_name', 'phone_number');
  });

  it("releases a user's custom claims (here groups) with the profile scope, at /me and in the ID token with the flag", async () => {
    const config = await discover(rich);
    const withProfile = await headlessLogin(config, rich, { scope: 'openid profile' });
    expect(withProfile.tokens.claims()!.groups).to.deep.equal(['admins']);
    expect(await oidc.fetchUserInfo(config, withProfile.tokens.access_token, 'carol')).to.deep.include({
      groups: ['admins'],
    });
    const withoutProfile = await headlessLogin(config, rich, { scope: 'openid email' });
    expect(await oidc.fetchUserInfo(config, withoutProfile.tokens.access_token, 'carol')).to.not.have.property(
      'groups',
    );
  });
});
