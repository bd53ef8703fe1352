import { expect } from 'chai';
import * as oidc from 'openid-client';
import { createIdp, type RunningIdp } from '../../idp/create-idp.js';
import { discover } from './support/relying-party.js';

describe('idp: the device authorization grant (RFC 8628, --enable-device-flow)', () => {
  let idp: RunningIdp;
  let config: oidc.Configuration;
  before(async () => {
    idp = await createIdp({
      port: 0,
      enableDeviceFlow: true,
      enableTestingApi: true,
      users: [
        { sub: 'alice', scopes: ['openid', 'profile', 'registrations:read'] },
        { sub: 'rita', email: 'rita@example.com' },
      ],
    });
    config = await discover(idp);
  });
  after(() => idp.close());

  // The device polls as RFC 8628 §3.5 says, only faster than the IdP's 5 s (the test approves at once).
  const poll = (response: oidc.DeviceAuthorizationResponse) =>
    oidc.pollDeviceAuthorizationGrant(config, { ...response, interval: 1 });

  it('advertises the device authorization endpoint and grant', () => {
    const metadata = config.serverMetadata();
    expect(metadata.device_authorization_endpoint).to.equal(`${idp.issuer}/device/auth`);
    expect(metadata.grant_types_supported).to.include('urn:ietf:params:oauth:grant-type:device_code');
  });

  it('completes once the testing API approves the user code as a user, with the scopes that user may have', async () => {
    const started = await oidc.initiateDeviceAuthorization(config, {
      scope: 'openid profile registrations:read gatehouse:admin',
    });
    expect(started.verification_uri).to.equal(`${idp.issuer}/device`);
    const approved = await idp.testing!.approveDevice({ userCode: started.user_code, sub: 'alice' });
    expect(approved.scope.split(' ').sort()).to.deep.equal(['openid', 'profile', 'registrations:read']);
    const tokens = await poll(started);
    expect(tokens.claims()!.sub).to.equal('alice');
    expect(tokens.scope!.split(' ')).to.not.include('gatehouse:admin');
    const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, 'alice');
    expect(userinfo.sub).to.equal('alice');
  });

  it('approves over HTTP too, with the user code as the device shows it', async () => {
    const started = await oidc.initiateDeviceAuthorization(config, { scope: 'openid' });
    const response = await fetch(`${idp.url}/_testing/device`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userCode: started.user_code.toLowerCase(), sub: 'rita' }),
    });
    expect(response.status).to.equal(200);
    expect((await poll(started)).claims()!.sub).to.equal('rita');
  });

  it('tells the device to keep waiting until approval, and refuses a code used twice or unknown', async () => {
    const started = await oidc.initiateDeviceAuthorization(config, { scope: 'openid' });
    const early = await fetch(`${idp.issuer}/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${idp.client.clientId}:${idp.client.clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
        device_code: started.device_code,
      }),
    });
    expect(((await early.json()) as { error: string }).error).to.equal('authorization_pending');
    await idp.testing!.approveDevice({ userCode: started.user_code, sub: 'rita' });
    for (const [userCode, problem] of [
      [started.user_code, /already used/],
      ['BCDF-GHJK', /no pending device authorization/],
    ] as const) {
      try {
        await idp.testing!.approveDevice({ userCode, sub: 'rita' });
        expect.fail('the approval should have been refused');
      } catch (error) {
        expect((error as Error).message).to.match(problem);
      }
    }
  });
});
