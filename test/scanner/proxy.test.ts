import { expect } from 'chai';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { proxyFor } from '../../scanner/proxy-from-env.js';
import { runCli, startTarget, type Target } from './support/run-cli.js';

describe('scanner proxy (-x and the proxy environment variables)', () => {
  let target: Target;
  let proxy: http.Server;
  let proxyUrl: string;
  const tunnels: string[] = [];
  const hosts: string[] = [];
  before(async () => {
    target = await startTarget((req, res) => {
      hosts.push(`${req.method} ${req.headers.host}${req.url}`);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('via proxy');
    });
    const targetPort = Number(new URL(target.url).port);
    // A tunnelling proxy (RFC 9110 §9.3.6 CONNECT) that sends every tunnel to the local target, whatever the host.
    proxy = http.createServer((_req, res) => res.writeHead(405).end());
    proxy.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
      tunnels.push(req.url ?? '');
      const upstream = net.connect(targetPort, '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  after(async () => {
    proxy.closeAllConnections();
    await new Promise<void>((resolve) => proxy.close(() => resolve()));
    await target.close();
  });
  beforeEach(() => {
    tunnels.length = 0;
    hosts.length = 0;
  });

  it('sends every request through -x', async () => {
    const result = await runCli([
      'scan',
      'curl',
      'http://api.invalid/items',
      '-x',
      proxyUrl,
      '--scans',
      'misconfiguration.http_trace',
      '--report-format',
      'json',
    ]);
    expect(result.code).to.equal(0);
    expect(JSON.parse(result.stdout).reports[0].status).to.equal('passed');
    expect(tunnels).to.deep.equal(['api.invalid:80']);
    expect(hosts).to.deep.equal(['TRACE api.invalid/items']);
  });

  it('uses HTTP_PROXY from the environment', async () => {
    const result = await runCli(
      ['scan', 'curl', 'http://api.invalid/items', '--scans', 'misconfiguration.http_trace'],
      { env: { HTTP_PROXY: proxyUrl } },
    );
    expect(result.code).to.equal(0);
    expect(tunnels).to.deep.equal(['api.invalid:80']);
  });

  it('picks -x first, then the scheme’s variable, and honours NO_PROXY', () => {
    expect(proxyFor('http://api.invalid/', undefined, { http_proxy: 'http://p:1', NO_PROXY: '.invalid' })).to.equal(
      undefined,
    );
    expect(proxyFor('http://api.invalid/', undefined, { http_proxy: 'http://p:1', NO_PROXY: 'other.test' })).to.equal(
      'http://p:1',
    );
    expect(proxyFor('https://api.test/', undefined, { HTTP_PROXY: 'http://p:1', HTTPS_PROXY: 'http://s:2' })).to.equal(
      'http://s:2',
    );
    expect(proxyFor('https://api.test/', 'http://x:3', { HTTPS_PROXY: 'http://s:2' })).to.equal('http://x:3');
  });

  it('records the proxy in the report options without its credentials', async () => {
    const withUser = proxyUrl.replace('http://', 'http://user:pw@');
    const result = await runCli([
      'scan',
      'curl',
      'http://api.invalid/items',
      '-x',
      withUser,
      '--scans',
      'misconfiguration.http_trace',
      '--report-format',
      'json',
    ]);
    expect(JSON.parse(result.stdout).options.proxy).to.equal(
      `${proxyUrl.replace('http://', 'http://%5Bredacted%5D@')}/`,
    );
  });
});
