import { expect } from 'chai';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { IncomingHttpHeaders } from 'node:http';
import { run } from '../../scanner/cli.js';
import type { Report } from '../../scanner/report/report-types.js';
import { reportProblems } from '../../scanner/report/validate-report.js';
import { runCli, startTarget, type Target } from './support/run-cli.js';

const spec = fileURLToPath(new URL('../fixtures/openapi/shop.openapi.yaml', import.meta.url));
const probeChecks = fileURLToPath(new URL('../fixtures/custom-checks/valid/', import.meta.url));

describe('scanner scan openapi', () => {
  let target: Target;
  const seen: { method: string; url: string; headers: IncomingHttpHeaders; body: string }[] = [];
  before(async () => {
    target = await startTarget((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
  });
  after(() => target.close());
  beforeEach(() => (seen.length = 0));

  const scan = (...flags: string[]) =>
    runCli([
      'scan',
      'openapi',
      spec,
      '--base-url',
      `${target.url}/v1`,
      '--checks-dir',
      probeChecks,
      '--scans',
      'custom.probe',
      '--report-format',
      'json',
      ...flags,
    ]);

  it('sends every operation with path, required query parameters, a JSON body and each operation’s credential', async () => {
    const result = await scan('--security-schemes', 'bearerAuth=tok-bearer', '--security-schemes', 'apiKey=key-123');
    expect(result.code).to.equal(0);
    const sent = seen.map((s) => [s.method, s.url, s.headers.authorization ?? '-', s.body]).sort();
    expect(sent).to.deep.equal([
      ['GET', '/v1/health', '-', ''],
      ['GET', '/v1/items/00000000-0000-4000-8000-000000000000?api_key=key-123', '-', ''],
      ['GET', '/v1/items?limit=5', 'Bearer tok-bearer', ''],
      ['POST', '/v1/items', 'Bearer tok-bearer', '{"name":"Lamp","price":1,"tags":["new"]}'],
    ]);
  });

  it('writes a valid report with an openapi section keyed by path template and method', async () => {
    const result = await scan('--security-schemes', 'bearerAuth=tok-bearer');
    const report = JSON.parse(result.stdout) as Report;
    expect(reportProblems(report)).to.deep.equal([]);
    expect(Object.keys(report.openapi!.paths).sort()).to.deep.equal(['/health', '/items', '/items/{itemId}']);
    expect(report.openapi!.paths['/items'].GET).to.deep.equal({
      operationId: 'listItems',
      tags: ['items'],
      securitySchemes: [{ type: 'http', scheme: 'Bearer', in: 'header', tokenFormat: 'jwt', name: 'bearerAuth' }],
      issues: [],
    });
    expect(report.openapi!.paths['/health'].GET).to.have.deep.property('securitySchemes', [
      { type: 'none', scheme: 'None', tokenFormat: 'none', name: 'no_auth' },
    ]);
    expect(report.reports.map((r) => r.operation?.id)).to.include('GET /items/{itemId}');
  });

  it('uses the first line of standard input as the token when no --security-schemes is given', async () => {
    let stdout = '';
    const code = await run(
      [
        'scan',
        'openapi',
        spec,
        '--base-url',
        `${target.url}/v1`,
        '--checks-dir',
        probeChecks,
        '--scans',
        'custom.probe',
        '--report-format',
        'json',
      ],
      {
        stdout: { write: (c: string) => (stdout += c) },
        stderr: { write: () => true },
        stdin: Readable.from(['piped-token\nignored\n']),
        env: {},
      },
    );
    expect(code).to.equal(0);
    expect(seen.filter((s) => s.headers.authorization === 'Bearer piped-token')).to.have.length(2);
    expect(seen.find((s) => s.url.startsWith('/v1/items/'))!.url).to.match(/api_key=piped-token$/);
  });

  it('takes servers[0].url with its variables when --base-url is not given', async () => {
    const result = await runCli([
      'scan',
      'openapi',
      spec,
      '--checks-dir',
      probeChecks,
      '--scans',
      'custom.probe',
      '--report-format',
      'json',
      '--security-schemes',
      'bearerAuth=t',
    ]);
    // The fixture's server points at port 1, where nothing listens: the scan stops before sending anything.
    expect(result).to.deep.equal({ code: 1, stdout: '', stderr: 'scanner: http://127.0.0.1:1: connection refused\n' });
  });

  it('scans at the origin that served a description without servers (OpenAPI’s default server "/")', async () => {
    const served = await startTarget((req, res) => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: '' });
      if (req.url === '/specs/api.json') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            openapi: '3.1.0',
            info: { title: 't', version: '1' },
            paths: { '/ok': { get: { responses: { '200': { description: 'ok' } } } } },
          }),
        );
      } else res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    try {
      const result = await runCli([
        'scan',
        'openapi',
        `${served.url}/specs/api.json`,
        '--checks-dir',
        probeChecks,
        '--scans',
        'custom.probe',
        '--report-format',
        'json',
      ]);
      expect(result.code, result.stderr).to.equal(0);
      expect(seen.map((s) => `${s.method} ${s.url}`)).to.deep.equal(['GET /specs/api.json', 'GET /ok']);
    } finally {
      await served.close();
    }
  });

  it('refuses a file that is not an OpenAPI 3 description with one line', async () => {
    const notSpec = fileURLToPath(new URL('../fixtures/custom-checks/valid/custom.probe.ts', import.meta.url));
    const result = await runCli(['scan', 'openapi', notSpec]);
    expect(result.code).to.equal(1);
    expect(result.stderr).to.match(
      /^scanner: .*custom\.probe\.ts: (neither JSON nor YAML|not an OpenAPI 3 description).*\n$/,
    );
  });
});
