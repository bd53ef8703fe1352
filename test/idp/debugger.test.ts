import { expect } from 'chai';
import { createIdp, type RunningIdp } from '../../idp/create-idp.js';
import { Browser } from './support/browser.js';

const REDIRECT = 'http://127.0.0.1:9/callback';

/** The text of a result section (its <pre>), HTML entities undone. */
function section(html: string, id: string): string {
  const match = new RegExp(`<pre id="${id}">([\\s\\S]*?)</pre>`).exec(html);
  if (!match) throw new Error(`no section ${id} in:\n${html}`);
  return match[1]
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

describe('idp: /_debugger (with the testing API)', () => {
  let idp: RunningIdp;
  before(async () => {
    idp = await createIdp({ port: 0, redirectUris: [REDIRECT], clientId: 'web-app', enableTestingApi: true });
  });
  after(() => idp.close());

  it('offers the code-flow clients, runs code + PKCE through the login and consent pages, and shows tokens, userinfo and refresh', async () => {
    const browser = new Browser(new URL(idp.url).origin);
    const start = await browser.go(`${idp.url}/_debugger`);
    expect(start.status).to.equal(200);
    expect(start.html).to.contain('<option value="web-app">').and.contain('<option value="gatehouse-debugger">');
    expect(start.html).to.not.match(/<script|<link|src=/); // no script, no external asset
    const login = await browser.submit(start, /\/_debugger\/start$/, {
      client_id: 'web-app',
      scope: 'openid email offline_access',
    });
    expect(login.html).to.contain('Sign in');
    const consent = await browser.submit(login, /\/login$/, { login: 'alice' });
    const result = await browser.submit(consent, /\/confirm$/);
    expect(result.status).to.equal(200);
    expect(result.url).to.match(/\/_debugger\/callback\?/);
    const id = JSON.parse(section(result.html!, 'id-token')) as {
      header: { alg: string };
      payload: Record<string, unknown>;
    };
    expect(id.header.alg).to.equal('RS256');
    expect(id.payload).to.include({ sub: 'alice', aud: 'web-app', iss: idp.issuer });
    expect(section(result.html!, 'access-token')).to.match(/^opaque token/);
    expect(JSON.parse(section(result.html!, 'userinfo'))).to.include({ sub: 'alice', email: 'alice@example.com' });
    const refresh = JSON.parse(section(result.html!, 'refresh')) as { id_token: { payload: Record<string, unknown> } };
    expect(refresh.id_token.payload).to.include({ sub: 'alice' });
  });

  it('uses the next login the testing API queued (no page), and reports an authorization error', async () => {
    await idp.testing!.nextLogin({ sub: 'erin', claims: { email: 'erin@example.com' } });
    const browser = new Browser(new URL(idp.url).origin);
    const result = await browser.submit(await browser.go(`${idp.url}/_debugger`), /\/start$/, {
      client_id: 'gatehouse-debugger',
      scope: 'openid email',
    });
    expect(JSON.parse(section(result.html!, 'id-token')).payload).to.include({ sub: 'erin' });
    expect(section(result.html!, 'refresh')).to.contain('no refresh token');
    const other = new Browser(new URL(idp.url).origin); // no session: the login page, then Cancel
    const denied = await other.submit(await other.go(`${idp.url}/_debugger`), /\/start$/, {
      client_id: 'web-app',
      scope: 'openid',
    });
    const aborted = await other.submit(denied, /\/abort$/);
    expect(aborted.status).to.equal(400);
    expect(section(aborted.html!, 'authorization-error')).to.contain('access_denied');
  });

  it('is not served without the testing API', async () => {
    const plain = await createIdp({ port: 0, redirectUris: [REDIRECT] });
    try {
      expect((await fetch(`${plain.url}/_debugger`)).status).to.equal(404);
      expect(plain.client.redirectUris).to.deep.equal([REDIRECT]);
    } finally {
      await plain.close();
    }
  });
});
