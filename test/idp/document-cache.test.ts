import { expect } from 'chai';
import request from 'supertest';
import { createIdp, type RunningIdp } from '../../idp/create-idp.js';

describe('idp: discovery and JWKS served from memory with strong ETags', () => {
  let idp: RunningIdp;
  before(async () => {
    idp = await createIdp({ port: 0, enableTestingApi: true });
  });
  after(() => idp.close());

  for (const [name, path] of [
    ['discovery', '/.well-known/openid-configuration'],
    ['JWKS', '/jwks'],
  ]) {
    it(`sends ${name} with a strong ETag and Cache-Control: no-cache, and 304 to a matching If-None-Match`, async () => {
      const first = await fetch(`${idp.issuer}${path}`);
      expect(first.status).to.equal(200);
      const etag = first.headers.get('etag')!;
      expect(etag).to.match(/^"[\w-]+"$/); // strong: no W/ prefix
      expect(first.headers.get('cache-control')).to.equal('no-cache');
      expect(first.headers.get('content-type')).to.match(/^application\/json/);
      const body = await first.text();
      const again = await fetch(`${idp.issuer}${path}`);
      expect(again.headers.get('etag')).to.equal(etag);
      expect(again.headers.get('access-control-allow-origin')).to.equal('*');
      expect(await again.text()).to.equal(body);
      const revalidated = await fetch(`${idp.issuer}${path}`, { headers: { 'if-none-match': etag } });
      expect(revalidated.status).to.equal(304);
      expect(await revalidated.text()).to.equal('');
      const head = await fetch(`${idp.issuer}${path}`, { method: 'HEAD' });
      expect(head.headers.get('etag')).to.equal(etag);
    });
  }

  it('serves new keys (and a new ETag) as soon as a key is rotated', async () => {
    const before = await fetch(`${idp.issuer}/jwks`);
    const etag = before.headers.get('etag')!;
    const { current } = await idp.testing!.rotateKeys();
    const after = await fetch(`${idp.issuer}/jwks`, { headers: { 'if-none-match': etag } });
    expect(after.status).to.equal(200);
    expect(after.headers.get('etag')).to.not.equal(etag);
    expect(((await after.json()) as { keys: { kid: string }[] }).keys.map((k) => k.kid)).to.include.members(current);
  });

  it('keeps endpoint URLs on the host that was asked, one cached document per host', async () => {
    const port = new URL(idp.url).port;
    const viaLocalhost = (
      await request(idp.url).get('/.well-known/openid-configuration').set('host', `localhost:${port}`)
    ).body as { token_endpoint: string };
    const viaIp = (await (await fetch(idp.discoveryUrl)).json()) as { token_endpoint: string };
    expect(viaLocalhost.token_endpoint).to.equal(`http://localhost:${port}/token`);
    expect(viaIp.token_endpoint).to.equal(`${idp.url}/token`);
  });
});
