import { expect } from 'chai';
import https from 'node:https';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runCli, type CliRun } from './support/run-cli.js';

const fixtures = fileURLToPath(new URL('../fixtures/', import.meta.url));

function expectOneLineFatal(result: CliRun, pattern: RegExp): void {
  expect(result.code).to.equal(1);
  expect(result.stdout).to.equal('');
  expect(result.stderr.split('\n')).to.have.length(2); // one line and its newline
  expect(result.stderr).to.match(pattern);
  expect(result.stderr).to.not.match(/\n\s+at /);
}

describe('scanner fatal errors: exit 1, one line on stderr, no stack', () => {
  it('refuses an invalid URL', async () => {
    expectOneLineFatal(
      await runCli(['scan', 'curl', 'http://exa mple.com/']),
      /^scanner: http:\/\/exa mple\.com\/: not a valid URL\n$/,
    );
  });

  it('refuses a URL that is not http(s)', async () => {
    expectOneLineFatal(await runCli(['scan', 'curl', 'ftp://127.0.0.1/']), /only http and https URLs can be scanned/);
  });

  it('reports a refused connection', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expectOneLineFatal(
      await runCli(['scan', 'curl', `http://127.0.0.1:${port}/`]),
      new RegExp(`^scanner: http://127\\.0\\.0\\.1:${port}: connection refused\\n$`),
    );
  });

  describe('against a self-signed TLS target', () => {
    let server: https.Server;
    let url: string;
    before(async () => {
      server = https.createServer(
        {
          key: readFileSync(`${fixtures}tls/self-signed.key.pem`),
          cert: readFileSync(`${fixtures}tls/self-signed.cert.pem`),
        },
        (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'),
      );
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    });
    after(() => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    });

    it('fails on the certificate without -k', async () => {
      expectOneLineFatal(
        await runCli(['scan', 'curl', url, '--scans', 'misconfiguration.http_trace']),
        /TLS certificate not trusted \(DEPTH_ZERO_SELF_SIGNED_CERT\); use -k/,
      );
    });

    it('scans with -k', async () => {
      const result = await runCli([
        'scan',
        'curl',
        url,
        '-k',
        '--scans',
        'misconfiguration.http_trace',
        '--report-format',
        'json',
      ]);
      expect(result.code).to.equal(0);
      expect(JSON.parse(result.stdout).reports[0].scans[0].response.statusCode).to.equal(200);
    });

    it('scans with --cacert naming the certificate', async () => {
      const result = await runCli([
        'scan',
        'curl',
        url,
        '--cacert',
        `${fixtures}tls/self-signed.cert.pem`,
        '--scans',
        'misconfiguration.http_trace',
      ]);
      expect(result.code).to.equal(0);
    });
  });

  it('reports an unreadable checks directory', async () => {
    expectOneLineFatal(
      await runCli(['checks', 'list', '--checks-dir', `${fixtures}no-such-dir`]),
      /no-such-dir: checks directory does not exist or is not a directory\n$/,
    );
  });

  it('reports a malformed custom check, naming the file', async () => {
    expectOneLineFatal(
      await runCli(['checks', 'list', '--checks-dir', `${fixtures}custom-checks/malformed`]),
      /custom\.bad_meta\.ts: dependOn is not a known field \(and 1 more problem\)\n$/,
    );
  });

  it('refuses a custom check that would replace a built-in', async () => {
    expectOneLineFatal(
      await runCli(['checks', 'list', '--checks-dir', `${fixtures}custom-checks/duplicate-builtin`]),
      /duplicate-builtin\/auth\.baseline\.ts: check id "auth\.baseline" is already defined by .*auth\.baseline\.ts \(built-in\)/,
    );
  });

  it('reports a missing dependency and a cycle', async () => {
    expectOneLineFatal(
      await runCli(['checks', 'list', '--checks-dir', `${fixtures}custom-checks/missing-dependency`]),
      /depends on "custom\.nowhere", which does not exist/,
    );
    expectOneLineFatal(
      await runCli(['checks', 'list', '--checks-dir', `${fixtures}custom-checks/cycle`]),
      /dependency cycle custom\.a → custom\.b → custom\.a/,
    );
  });

  it('refuses an unknown flag instead of ignoring it', async () => {
    expectOneLineFatal(
      await runCli(['scan', 'curl', 'http://127.0.0.1:9/', '--rate-limit', '5']),
      /^scanner: unknown flag --rate-limit \(see scanner scan curl --help\)\n$/,
    );
  });

  it('refuses a flag without its value and an invalid threshold', async () => {
    expectOneLineFatal(await runCli(['scan', 'curl', 'http://127.0.0.1:9/', '-H']), /flag -H, --header needs a value/);
    expectOneLineFatal(
      await runCli(['scan', 'curl', 'http://127.0.0.1:9/', '--severity-threshold', '11']),
      /--severity-threshold must be ≤ 10 \(got "11"\)/,
    );
  });

  it('lists every bad scan-wide flag and check option in its one line, and the rules between the report flags', async () => {
    expectOneLineFatal(
      await runCli([
        'scan',
        'curl',
        'http://127.0.0.1:9/',
        '--concurrency',
        '0',
        '--report-format',
        'JSON',
        '--rate-limit-burst',
        '1',
      ]),
      /^scanner: --report-format must be one of table, json, yaml, sarif, junit, html \(got "JSON"\); --concurrency must be ≥ 1 \(got "0"\); --rate-limit-burst must be ≥ 2 \(got "1"\)\n$/,
    );
    expectOneLineFatal(
      await runCli(['scan', 'curl', 'http://127.0.0.1:9/', '--report-transport', 'url']),
      /^scanner: --report-transport url needs --report-url <url>\n$/,
    );
  });

  it('refuses --scans that matches no check', async () => {
    expectOneLineFatal(
      await runCli(['scan', 'curl', 'http://127.0.0.1:9/', '--scans', 'nope.*']),
      /--scans nope\.\*: matches no check/,
    );
  });
});
