/**
 * The injection family against the stub IdP's endpoints (oidc-provider): authorization with its redirect_uri and state,
 * the token endpoint's form body, logout with its post-logout redirect — every input tried, nothing reported. A real
 * OpenID provider validates redirects against registered URIs and never runs, renders or reads what it is sent.
 */
import { expect } from 'chai';
import { createIdp, type RunningIdp } from '../../idp/create-idp.js';
import { scanTarget, type ScanTargetOptions } from '../support/scan.js';

const FAMILY = [
  'injection.command',
  'injection.path_traversal',
  'injection.ssti',
  'injection.sql',
  'injection.nosql',
  'misconfiguration.open_redirect',
];
const REDIRECT = 'http://127.0.0.1:9/callback';

describe('the injection family on the stub IdP’s endpoints', function () {
  this.timeout(60_000);
  let idp: RunningIdp;
  before(async () => {
    idp = await createIdp({ port: 0, redirectUris: [REDIRECT], postLogoutRedirectUri: 'http://127.0.0.1:9/bye' });
  });
  after(() => idp.close());

  const findings = async (url: string, options: Omit<ScanTargetOptions, 'checks'> = {}): Promise<string[]> => {
    const outcome = await scanTarget(url, { checks: FAMILY, ...options });
    const ran = outcome.results.filter((r) => FAMILY.includes(r.checkId) && r.status !== 'skipped');
    expect(ran.length, `some of the family ran on ${url}`).to.be.greaterThan(0);
    return outcome.results.flatMap((r) => r.findings.map((f) => `${r.checkId}: ${f.issueId} (${f.detail ?? ''})`));
  };

  it('reports nothing on the authorization endpoint (redirect_uri, state, scope…)', async () => {
    const query = new URLSearchParams({
      client_id: idp.client.clientId,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'openid',
      state: 'xyz',
      nonce: 'n-1',
    });
    expect(await findings(`${idp.issuer.replace(/\/$/, '')}/auth?${query.toString()}`)).to.deep.equal([]);
  });

  it('reports nothing on the token endpoint’s form body', async () => {
    const body = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: idp.client.clientId,
      client_secret: idp.client.clientSecret ?? '',
      scope: 'openid',
    });
    const found = await findings(`${idp.issuer.replace(/\/$/, '')}/token`, {
      method: 'POST',
      body: body.toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(found).to.deep.equal([]);
  });

  it('reports nothing on logout’s post_logout_redirect_uri', async () => {
    const query = new URLSearchParams({
      client_id: idp.client.clientId,
      post_logout_redirect_uri: 'http://127.0.0.1:9/bye',
    });
    expect(await findings(`${idp.issuer.replace(/\/$/, '')}/session/end?${query.toString()}`)).to.deep.equal([]);
  });
});
