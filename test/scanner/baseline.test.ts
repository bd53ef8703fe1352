import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Report } from '../../scanner/report/report-types.js';
import { runCli, startTarget, type Target } from './support/run-cli.js';
import { sarifProblems } from './support/sarif-validator.js';

const thresholdChecks = fileURLToPath(new URL('../fixtures/custom-checks/threshold/', import.meta.url));

describe('scanner --baseline', () => {
  let target: Target;
  let dir: string;
  before(async () => {
    target = await startTarget();
    dir = await mkdtemp(join(tmpdir(), 'scanner-baseline-'));
  });
  after(async () => {
    await target.close();
    await rm(dir, { recursive: true, force: true });
  });

  const scan = (...flags: string[]) =>
    runCli(['scan', 'curl', `${target.url}/ok`, '--checks-dir', thresholdChecks, ...flags]);

  it('reports only findings that are not in the baseline, and exits 0 when nothing is new', async () => {
    const first = join(dir, 'first.json');
    await scan('--scans', 'custom.high', '--report-file', first, '--report-format', 'json');
    const second = await scan(
      '--scans',
      'custom.*',
      '--baseline',
      first,
      '--report-format',
      'json',
      '--only-scans-above-threshold',
    );
    const report = JSON.parse(second.stdout) as Report;
    expect(report.reports.find((r) => r.id === 'custom.high')).to.include({
      status: 'passed',
      reason: 'every finding is in the baseline',
    });
    expect(report.reports.find((r) => r.id === 'custom.low')).to.include({ status: 'failed' });
    expect(second.code).to.equal(2); // custom.low is new
    const third = await scan(
      '--scans',
      'custom.*',
      '--baseline',
      first,
      '--exclude-scans',
      'custom.low',
      '--only-scans-above-threshold',
    );
    expect(third.code).to.equal(0);
    expect(third.stdout).to.match(/^Success: No issue detected!/);
  });

  it('refuses a baseline that is not a valid report, before scanning', async () => {
    const bad = join(dir, 'bad.json');
    await writeFile(bad, '{"reports": []}');
    const before = target.requests;
    const result = await scan('--scans', 'custom.*', '--baseline', bad);
    expect(result.code).to.equal(1);
    expect(result.stderr).to.equal(`scanner: --baseline ${bad}: not a valid report (options is required)\n`);
    expect(target.requests).to.equal(before);
  });
});

describe('scanner --report-format sarif', () => {
  let target: Target;
  before(async () => {
    target = await startTarget();
  });
  after(() => target.close());

  it('writes a valid SARIF log with no rules and no results when nothing is found', async () => {
    const result = await runCli([
      'scan',
      'curl',
      `${target.url}/ok`,
      '--scans',
      'misconfiguration.http_trace',
      '--report-format',
      'sarif',
    ]);
    expect(result.code).to.equal(0);
    const sarif = JSON.parse(result.stdout) as {
      runs: { tool: { driver: { rules: unknown[] } }; results: unknown[] }[];
    };
    expect(sarifProblems(sarif)).to.deep.equal([]);
    expect(sarif.runs[0].tool.driver.rules).to.deep.equal([]);
    expect(sarif.runs[0].results).to.deep.equal([]);
  });

  it('writes SARIF 2.1.0 with one rule per issue, its security-severity and level', async () => {
    const result = await runCli([
      'scan',
      'curl',
      `${target.url}/ok`,
      '--checks-dir',
      thresholdChecks,
      '--scans',
      'custom.*',
      '--report-format',
      'sarif',
    ]);
    expect(result.code).to.equal(0);
    const sarif = JSON.parse(result.stdout) as {
      version: string;
      runs: {
        tool: { driver: { rules: { id: string; properties: Record<string, unknown> }[] } };
        results: { ruleId: string; level: string }[];
      }[];
    };
    expect(sarif.version).to.equal('2.1.0');
    expect(sarifProblems(sarif)).to.deep.equal([]);
    const run = sarif.runs[0];
    expect(run.tool.driver.rules.find((r) => r.id === 'custom.high_found')!.properties['security-severity']).to.equal(
      '8.0',
    );
    expect(run.results.map((r) => [r.ruleId, r.level]).sort()).to.deep.equal([
      ['custom.high_found', 'error'],
      ['custom.info_found', 'note'],
      ['custom.low_found', 'note'],
    ]);
  });
});
