import { expect } from 'chai';
import type { Report } from '../../scanner/report/report-types.js';
import { reportProblems } from '../../scanner/report/validate-report.js';
import { runCli, startTarget, type Target } from './support/run-cli.js';

describe('scanner discover api', () => {
  let target: Target;
  before(async () => {
    target = await startTarget((req, res) => {
      if (req.url === '/openapi.json')
        return res
          .writeHead(200, { 'content-type': 'application/json' })
          .end('{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{}}');
      res.writeHead(404, { server: 'nginx/1.25.3', 'content-type': 'text/plain' }).end('not found');
    });
  });
  after(() => target.close());

  it('shows the OpenAPI URL it found and N/A for GraphQL in the well-known paths table', async () => {
    const result = await runCli(['discover', 'api', `${target.url}/`, '--rate', '5000/s']);
    expect(result.code).to.equal(0);
    expect(result.stdout).to.match(new RegExp(`│ OpenAPI\\s+│ ${target.url}/openapi\\.json │`));
    expect(result.stdout).to.match(/│ GraphQL\s+│ N\/A\s+│/);
    expect(result.stdout).to.match(/│ Server\s+│ Nginx:1\.25\.3 │/);
  });

  it('runs only discover checks and writes a valid JSON report', async () => {
    const before = target.requests;
    const result = await runCli(['discover', 'api', `${target.url}/`, '--rate', '5000/s', '--report-format', 'json']);
    const report = JSON.parse(result.stdout) as Report;
    expect(reportProblems(report)).to.deep.equal([]);
    expect(report.reports.map((r) => r.id).every((id) => id.startsWith('discover.'))).to.equal(true);
    expect(report.curl).to.equal(undefined);
    // Every request the target received is counted, and nothing else (the reachability check sends no HTTP request).
    expect(report.options.requestsSent).to.equal(target.requests - before);
  });

  it('refuses -X and -d, which discover does not take', async () => {
    const result = await runCli(['discover', 'api', `${target.url}/`, '-X', 'POST']);
    expect(result).to.deep.equal({
      code: 1,
      stdout: '',
      stderr: 'scanner: unknown flag -X (see scanner discover api --help)\n',
    });
  });
});
