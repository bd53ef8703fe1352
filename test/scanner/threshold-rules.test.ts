import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { runCli, startTarget, type Target } from './support/run-cli.js';
import type { Report } from '../../scanner/report/report-types.js';

const thresholdChecks = fileURLToPath(new URL('../fixtures/custom-checks/threshold/', import.meta.url));

describe('scanner threshold rules (docs/architecture.md §2.2)', () => {
  let target: Target;
  before(async () => {
    target = await startTarget();
  });
  after(() => target.close());

  const scan = (path: string, ...flags: string[]) =>
    runCli(['scan', 'curl', `${target.url}${path}`, '--checks-dir', thresholdChecks, '--no-progress', ...flags]);
  const jsonScan = async (path: string, ...flags: string[]) => {
    const result = await scan(path, '--report-format', 'json', ...flags);
    return { ...result, report: JSON.parse(result.stdout) as Report };
  };

  it('rule 1: writes the advice to stderr when a finding scores strictly above the threshold', async () => {
    const above = await scan('/ok', '--scans', 'custom.low', '--severity-threshold', '1.9');
    expect(above.stderr).to.equal("Warning: There are some issues. It's advised to take action.\n");
    expect(above.stdout).to.include('Low thing found');
  });

  it('rule 1: keeps stderr empty when the highest finding equals the threshold (strictly above only)', async () => {
    const equal = await scan('/ok', '--scans', 'custom.low', '--severity-threshold', '2');
    expect(equal.code).to.equal(0);
    expect(equal.stderr).to.equal('');
    expect(equal.stdout).to.include('Low thing found');
  });

  it('rule 2: with --severity-threshold 0 always writes to stderr, even without findings', async () => {
    const clean = await scan('/missing', '--scans', 'custom.low', '--severity-threshold', '0');
    expect(clean.stderr).to.equal('Success: No issue detected!\n');
    expect(clean.stdout).to.match(/^Success: No issue detected!/);
  });

  it('rule 3: by default runs every check and still reports findings below the threshold, exit 0', async () => {
    const { code, report } = await jsonScan('/ok', '--scans', 'custom.*', '--severity-threshold', '5');
    expect(code).to.equal(0);
    expect(report.reports.map((r) => [r.id, r.status])).to.deep.equal([
      ['custom.gate', 'passed'],
      ['custom.high', 'failed'],
      ['custom.info', 'failed'],
      ['custom.low', 'failed'],
    ]);
  });

  it('rule 4: with --only-scans-above-threshold skips checks whose maxCvss is below the threshold before the scan', async () => {
    const { report } = await jsonScan(
      '/ok',
      '--scans',
      'custom.*',
      '--severity-threshold',
      '5',
      '--only-scans-above-threshold',
    );
    expect(report.reports.map((r) => r.id)).to.not.include.members(['custom.low', 'custom.info']);
    expect(report.options.checks).to.deep.equal(['custom.gate', 'custom.high']);
  });

  it('rule 4: keeps a check whose maxCvss equals the threshold (only below is skipped)', async () => {
    const { report } = await jsonScan(
      '/ok',
      '--scans',
      'custom.*',
      '--severity-threshold',
      '2',
      '--only-scans-above-threshold',
    );
    expect(report.options.checks).to.deep.equal(['custom.gate', 'custom.high', 'custom.low']);
  });

  it('rule 5: with --only-scans-above-threshold exits 2 on any finding', async () => {
    const vulnerable = await scan('/ok', '--scans', 'custom.high', '--only-scans-above-threshold');
    expect(vulnerable.code).to.equal(2);
  });

  it('rule 5: with --only-scans-above-threshold exits 0 when nothing is found', async () => {
    const clean = await scan('/missing', '--scans', 'custom.*', '--only-scans-above-threshold');
    expect(clean.code).to.equal(0);
    expect(clean.stdout).to.match(/^Success: No issue detected!/);
  });

  it('rule 5 does not apply without the flag: findings above the threshold still exit 0', async () => {
    const result = await scan('/ok', '--scans', 'custom.high');
    expect(result.code).to.equal(0);
    expect(result.stderr).to.equal("Error: There are some high-risk issues. It's advised to take immediate action.\n");
  });

  it('rule 6: a dependency of a kept check runs whatever its own score, and is named as pulled in', async () => {
    const { report } = await jsonScan(
      '/ok',
      '--scans',
      'custom.high',
      '--severity-threshold',
      '5',
      '--only-scans-above-threshold',
    );
    expect(report.reports.map((r) => [r.id, r.status])).to.deep.equal([
      ['custom.gate', 'passed'],
      ['custom.high', 'failed'],
    ]);
    expect(report.options.pulledInDependencies).to.deep.equal(['custom.gate']);
  });
});
