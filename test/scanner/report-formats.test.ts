import { expect } from 'chai';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { load } from 'js-yaml';
import type { Report } from '../../scanner/report/report-types.js';
import { reportProblems } from '../../scanner/report/validate-report.js';
import { buildReport } from '../../scanner/report/build-report.js';
import { formatJson } from '../../scanner/formatters/json.js';
import { formatYaml } from '../../scanner/formatters/yaml.js';
import { scanTarget } from '../support/scan.js';
import { runCli, startTarget, type Target } from './support/run-cli.js';

describe('scanner reports', () => {
  let target: Target;
  let dir: string;
  before(async () => {
    target = await startTarget((req, res) =>
      res
        .writeHead(req.headers.authorization ? 401 : 200, {
          server: 'nginx/1.25.3',
          'set-cookie': ['sid=1; Path=/', 'theme=dark; HttpOnly; SameSite=Lax'],
        })
        .end('{"ok":true}'),
    );
    dir = await mkdtemp(join(tmpdir(), 'scanner-report-'));
  });
  after(async () => {
    await target.close();
    await rm(dir, { recursive: true, force: true });
  });

  const fullScan = ['--exclude-scans', 'discover.*', '--no-progress'];

  it('writes a JSON report to a file that passes scanner report validate', async () => {
    const file = join(dir, 'report.json');
    const scan = await runCli([
      'scan',
      'curl',
      `${target.url}/items`,
      '-H',
      'Authorization: Bearer abc.def',
      '-d',
      'a=1',
      ...fullScan,
      '--report-format',
      'json',
      '--report-file',
      file,
    ]);
    expect(scan.code).to.equal(0);
    expect(scan.stdout).to.equal('');
    // The run ends with one line naming the file and what it holds.
    const last = scan.stderr.trimEnd().split('\n').at(-1);
    expect(last).to.match(
      new RegExp(
        `^scanner: report written to ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(json\\): 1 operation, \\d+ checks, \\d+ requests, \\d+ findings? \\(\\d+ above 1\\.0\\)$`,
      ),
    );
    const validate = await runCli(['report', 'validate', file]);
    expect(validate).to.deep.equal({ code: 0, stdout: `${file}: valid (report revision 2024-10)\n`, stderr: '' });
    const report = JSON.parse(await readFile(file, 'utf8')) as Report;
    expect(report.options).to.include({ requestTimeoutMs: 10_000, rate: '50/s', concurrency: 8, severityThreshold: 1 });
    expect(report.curl)
      .to.include({ method: 'POST', url: `${target.url}/items` })
      .and.have.deep.property('data', { raw: 'a=1' });
    expect(report.curl!.securitySchemes).to.deep.equal([
      { type: 'http', scheme: 'Bearer', in: 'header', tokenFormat: 'none', name: 'bearer_auth' },
    ]);
    const cookies = report.reports.flatMap((r) => r.scans).find((s) => s.response?.cookies)?.response?.cookies;
    expect(cookies).to.deep.equal([
      { name: 'sid', value: '1', path: '/' },
      { name: 'theme', value: 'dark', httpOnly: true, sameSite: 'Lax' },
    ]);
  });

  it('report validate lists every problem of an invalid report and exits 1', async () => {
    const file = join(dir, 'bad.json');
    await writeFile(
      file,
      JSON.stringify({
        options: {},
        reports: [
          {
            id: 'x',
            name: 'x',
            startTime: 'yesterday',
            scans: [],
            issues: [{ id: 'i', name: 'i', cvss: { version: 4, score: 1 }, status: 'none' }],
          },
        ],
      }),
    );
    const result = await runCli(['report', 'validate', file]);
    expect(result.code).to.equal(1);
    expect(result.stderr)
      .to.include('invalid report (2 problems)')
      .and.include('reports[0].startTime')
      .and.include('reports[0].issues[0].status');
  });

  it('writes YAML that parses to the same object as the JSON of the same scan', async () => {
    const outcome = await scanTarget(`${target.url}/items`, {
      checks: ['misconfiguration.http_*', 'auth.baseline'],
      headers: { Authorization: 'Bearer abc' },
    });
    const report = buildReport(outcome, { command: 'test' });
    expect(reportProblems(report)).to.deep.equal([]);
    expect(load(formatYaml(report))).to.deep.equal(JSON.parse(formatJson(report)));
  });

  it('writes a YAML report file that validates', async () => {
    const yamlFile = join(dir, 'report.yaml');
    const result = await runCli([
      'scan',
      'curl',
      `${target.url}/items`,
      ...fullScan,
      '--report-format',
      'yaml',
      '--report-file',
      yamlFile,
    ]);
    expect(result.code).to.equal(0);
    const fromYaml = load(await readFile(yamlFile, 'utf8')) as Report;
    expect(reportProblems(fromYaml)).to.deep.equal([]);
    expect(fromYaml.reports.length).to.be.greaterThan(5);
  });

  it('POSTs the JSON report to --report-url', async () => {
    let received = '';
    let contentType = '';
    const receiver = http.createServer((req, res) => {
      contentType = req.headers['content-type'] ?? '';
      req.on('data', (c: Buffer) => (received += c.toString()));
      req.on('end', () => res.writeHead(204).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/reports`;
      const result = await runCli([
        'scan',
        'curl',
        `${target.url}/items`,
        '--scans',
        'misconfiguration.http_headers',
        '--report-url',
        url,
      ]);
      expect(result.code).to.equal(0);
      expect(result.stdout).to.equal('');
      expect(contentType).to.equal('application/json');
      expect(reportProblems(JSON.parse(received))).to.deep.equal([]);
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });

  it('fails with one line when the report receiver refuses the report', async () => {
    const receiver = http.createServer((_req, res) => res.writeHead(500).end());
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;
      const result = await runCli([
        'scan',
        'curl',
        `${target.url}/items`,
        '--scans',
        'misconfiguration.http_headers',
        '--report-url',
        url,
      ]);
      expect(result.code).to.equal(1);
      expect(result.stderr).to.equal(`scanner: --report-url ${url}: the receiver answered 500\n`);
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
});
