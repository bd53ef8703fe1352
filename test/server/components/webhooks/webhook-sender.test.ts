/**
 * One delivery attempt: the target is checked again at delivery time on the address actually connected to (a host
 * that now resolves to loopback — DNS rebinding — is refused before any request), and redirects are not followed.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { sendDelivery } from '../../../../server/components/webhooks/webhook-sender.js';
import { isPublicAddress } from '../../../../server/components/webhooks/webhook-target.js';

describe('a webhook delivery attempt', () => {
  let server: Server;
  let port: number;
  const paths: string[] = [];
  before(async () => {
    server = createServer((req, res) => {
      paths.push(req.url ?? '');
      if (req.url === '/moved') res.writeHead(302, { location: `http://127.0.0.1:${port}/elsewhere` });
      else res.writeHead(200);
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  beforeEach(() => (paths.length = 0));
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const attempt = (url: string, allowPrivate: boolean) =>
    sendDelivery({ url, secret: 'whsec_c2VjcmV0', messageId: 'msg_1', body: '{}', now: new Date(), allowPrivate });

  it('refuses a host that resolves to loopback at delivery time, before sending anything', async () => {
    const result = await attempt(`http://localhost:${port}/in`, false);
    expect(result.ok).to.equal(false);
    expect(result.error).to.match(/localhost resolves to (127\.0\.0\.1|::1), not a public address/);
    expect(result).not.to.have.property('statusCode');
    expect(paths).to.deep.equal([]);
  });

  it('refuses a private address literal at delivery time', async () => {
    const result = await attempt(`http://127.0.0.1:${port}/in`, false);
    expect(result).to.include({ ok: false, error: '127.0.0.1 is not a public address' });
    expect(paths).to.deep.equal([]);
  });

  it('reaches the same receiver when private targets are allowed', async () => {
    expect(await attempt(`http://localhost:${port}/in`, true)).to.include({ ok: true, statusCode: 200 });
  });

  it('does not follow a redirect: the attempt fails with its status', async () => {
    const result = await attempt(`http://127.0.0.1:${port}/moved`, true);
    expect(result).to.include({ ok: false, statusCode: 302 });
    expect(paths).to.deep.equal(['/moved']);
  });

  it('tells public addresses from loopback, private, link-local and mapped ones', () => {
    for (const address of ['8.8.8.8', '2606:4700:4700::1111']) expect(isPublicAddress(address), address).to.equal(true);
    for (const address of ['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '::1', 'fd00::1'])
      expect(isPublicAddress(address), address).to.equal(false);
    expect(isPublicAddress('::ffff:10.0.0.1')).to.equal(false);
  });
});
