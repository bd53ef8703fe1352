import { expect } from 'chai';
import { loadChecks } from '../../scanner/loader.js';
import { withDependencies } from '../../scanner/graph.js';
import { selectChecks, globToRegExp } from '../../scanner/select-checks.js';
import type { Report } from '../../scanner/report/report-types.js';
import { runCli, startTarget, type Target } from './support/run-cli.js';

describe('scanner --scans / --exclude-scans', () => {
  let target: Target;
  before(async () => {
    target = await startTarget();
  });
  after(() => target.close());

  it('treats a pattern as a glob over whole ids', () => {
    expect(globToRegExp('jwt.*').test('jwt.alg_none')).to.equal(true);
    expect(globToRegExp('jwt.*').test('xjwt.alg_none')).to.equal(false);
    expect(globToRegExp('misconfiguration.http_*').test('misconfiguration.http_trace')).to.equal(true);
    expect(globToRegExp('jwt.alg_none').test('jwt.alg_noneX')).to.equal(false);
    expect(globToRegExp('discover.well-known').test('discover.well-known')).to.equal(true);
  });

  it("--scans 'jwt.*' runs exactly the jwt checks plus their dependencies", async () => {
    const all = await loadChecks();
    const jwtIds = all.map((c) => c.definition.id).filter((id) => id.startsWith('jwt.'));
    expect(jwtIds.length).to.be.greaterThan(0);
    const expected = [
      ...withDependencies(
        jwtIds,
        all.map((c) => c.definition),
      ),
    ].sort();
    const result = await runCli([
      'scan',
      'curl',
      `${target.url}/ok`,
      '-H',
      'Authorization: Bearer opaque-token',
      '--scans',
      'jwt.*',
      '--report-format',
      'json',
    ]);
    expect(result.code).to.equal(0);
    const report = JSON.parse(result.stdout) as Report;
    expect([...new Set(report.reports.map((r) => r.id))].sort()).to.deep.equal(expected);
  });

  it('--exclude-scans wins over --scans', () => {
    const checks = [
      { id: 'jwt.a', maxCvss: 9 },
      { id: 'jwt.b', maxCvss: 9 },
      { id: 'misc.c', maxCvss: 0 },
    ].map(({ id, maxCvss }) => ({
      definition: { id, name: id, issues: [], maxCvss, async run() {} },
      file: `${id}.ts`,
      origin: 'custom' as const,
    }));
    const selected = selectChecks(checks, { scans: ['jwt.*'], excludeScans: ['jwt.b'] });
    expect(selected.checks.map((c) => c.definition.id)).to.deep.equal(['jwt.a']);
    expect(selectChecks(checks, { excludeScans: ['jwt.*'] }).checks.map((c) => c.definition.id)).to.deep.equal([
      'misc.c',
    ]);
  });

  it('--exclude-scans removes a check from a real scan', async () => {
    const result = await runCli([
      'scan',
      'curl',
      `${target.url}/ok`,
      '--scans',
      'misconfiguration.http_*',
      '--exclude-scans',
      'misconfiguration.http_trac?',
      '--report-format',
      'json',
    ]);
    const ids = (JSON.parse(result.stdout) as Report).reports.map((r) => r.id);
    expect(ids).to.include('misconfiguration.http_headers');
    expect(ids).to.not.include('misconfiguration.http_trace');
    expect(ids).to.not.include('misconfiguration.http_track');
  });
});
