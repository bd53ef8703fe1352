import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import type { Report } from '../../scanner/report/report-types.js';
import { runCli, startTarget, type Target } from './support/run-cli.js';

const valid = fileURLToPath(new URL('../fixtures/custom-checks/valid/', import.meta.url));
const example = fileURLToPath(new URL('../../examples/checks/', import.meta.url));

describe('scanner custom checks (--checks-dir)', () => {
  let target: Target;
  before(async () => {
    target = await startTarget((req, res) =>
      res.writeHead(200, { server: 'fixture/1.0', 'x-api-version': '3.2.1' }).end('{}'),
    );
  });
  after(() => target.close());

  it('lists a valid custom check with its origin, score and dependencies', async () => {
    const result = await runCli(['checks', 'list', '--checks-dir', valid, '--format', 'json']);
    expect(result.code).to.equal(0);
    const rows = JSON.parse(result.stdout) as { id: string; origin: string; maxCvss: number; dependsOn: string[] }[];
    expect(rows.find((r) => r.id === 'custom.server_header'))
      .to.include({ origin: 'custom', maxCvss: 2 })
      .and.have.deep.property('dependsOn', ['custom.probe']);
    expect(rows.find((r) => r.id === 'auth.baseline')).to.include({ origin: 'built-in' });
  });

  it('lists checks as a table by default', async () => {
    const result = await runCli(['checks', 'list', '--checks-dir', valid]);
    expect(result.stdout).to.match(/│ ID\s+│ NAME\s+│ MAX CVSS │ DEPENDS ON\s+│ ORIGIN\s+│/);
    expect(result.stdout).to.match(
      /│ custom\.server_header\s+│ Custom Server Header\s+│ 2\.0\s+│ custom\.probe\s+│ custom\s+│/,
    );
  });

  it('runs a valid custom check and shows its finding in the report and the table', async () => {
    const json = await runCli([
      'scan',
      'curl',
      `${target.url}/`,
      '--checks-dir',
      valid,
      '--scans',
      'custom.server_header',
      '--report-format',
      'json',
    ]);
    const report = JSON.parse(json.stdout) as Report;
    expect(report.reports.map((r) => [r.id, r.status])).to.deep.equal([
      ['custom.probe', 'passed'],
      ['custom.server_header', 'failed'],
    ]);
    expect(report.reports[1].issues[0])
      .to.include({ id: 'custom.server_header_exposed', status: 'failed' })
      .and.have.deep.property('details', ['Server: fixture/1.0']);
    const table = await runCli([
      'scan',
      'curl',
      `${target.url}/`,
      '--checks-dir',
      valid,
      '--scans',
      'custom.server_header',
    ]);
    expect(table.stdout).to.match(
      /│ GET \/\s+│ Low\s+│ 2\.0\s+│ API8:2023 Security Misconfiguration │ Server header is exposed │/,
    );
  });

  it('passes --jwt-secrets-file (repeatable), --jwt-public-key-file, --callback-host, the claim-check tokens and --rate-limit-burst to checks as options', async () => {
    const options = fileURLToPath(new URL('../fixtures/custom-checks/options/', import.meta.url));
    const result = await runCli([
      'scan',
      'curl',
      `${target.url}/`,
      '--checks-dir',
      options,
      '--scans',
      'custom.options_echo',
      '--report-format',
      'json',
      '--jwt-secrets-file',
      'a.txt',
      '--jwt-secrets-file',
      'b.txt',
      '--jwt-public-key-file',
      'issuer.pem',
      '--callback-host',
      '10.0.0.5',
      '--as-other',
      'Authorization: Bearer other-identity',
      '--jwt-expired-token',
      'expired.jwt.token',
      '--jwt-other-issuer-token',
      'issuer.jwt.token',
      '--jwt-other-audience-token',
      'audience.jwt.token',
      '--rate-limit-burst',
      '20',
    ]);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.reports[0].data).to.deep.equal({
      options: {
        jwtSecretsFile: ['a.txt', 'b.txt'],
        jwtPublicKeyFile: 'issuer.pem',
        callbackHost: '10.0.0.5',
        asOther: { name: 'Authorization', value: '[redacted]' },
        expiredToken: '[redacted]',
        otherIssuerToken: '[redacted]',
        otherAudienceToken: '[redacted]',
        rateLimitBurst: 20,
      },
      asOtherValueLength: 'Bearer other-identity'.length,
    });
    expect(report.options.asOther).to.equal('Authorization: [redacted]');
    expect(report.options).to.include({ expiredToken: '[redacted]', rateLimitBurst: 20 });
  });

  it('runs the example custom check from examples/checks', async () => {
    const result = await runCli([
      'scan',
      'curl',
      `${target.url}/`,
      '--checks-dir',
      example,
      '--scans',
      'custom.*',
      '--report-format',
      'json',
    ]);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.reports[0].issues[0]).to.include({
      id: 'security_misconfiguration.backend_version_disclosed',
      status: 'failed',
    });
    expect(report.reports[0].issues[0].scans).to.deep.equal([{ id: report.reports[0].scans[0].id, status: 'failed' }]);
  });

  it("passes the example check's own option (--version-header, repeatable) to it", async () => {
    const result = await runCli([
      'scan',
      'curl',
      `${target.url}/`,
      '--checks-dir',
      example,
      '--scans',
      'custom.*',
      '--report-format',
      'json',
      '--version-header',
      'Server',
    ]);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.reports[0].issues[0].details).to.deep.equal(['x-api-version: 3.2.1; server: fixture/1.0']);
    expect(report.options.versionHeader).to.deep.equal(['Server']);
  });
});
