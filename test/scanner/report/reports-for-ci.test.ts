/**
 * Reports for CI (report/issue-fingerprint.ts, report/curl-command.ts, config/suppressions.ts, formatters/junit.ts):
 * fingerprints that stay put, a curl command without the credential, suppressions with their expiry, JUnit a maintained
 * parser reads. One local target that sends no security header, so misconfiguration.http_headers fails on it.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { dump } from 'js-yaml';
import { parse as parseJunit, type TestSuite, type TestSuites } from 'junit2json';
import type { IssueReport, Report } from '../../../scanner/report/report-types.js';
import { activeSuppressions, expiryOf } from '../../../scanner/config/suppressions.js';
import { runCli, scanToReport, startTarget, type Target } from '../support/run-cli.js';

const SECRET = 'opaque-secret-7f3a';
const failedIssues = (report: Report): IssueReport[] =>
  report.reports.flatMap((r) => r.issues.filter((i) => i.status === 'failed'));

describe('reports for CI', () => {
  let target: Target;
  let dir: string;
  const scan = [
    'scan',
    'curl',
    '',
    '-H',
    `Authorization: Bearer ${SECRET}`,
    '--scans',
    'misconfiguration.http_headers',
  ];
  before(async () => {
    target = await startTarget();
    scan[2] = `${target.url}/ok`;
  });
  after(() => target.close());
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'scanner-ci-reports-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('gives every failed issue a fingerprint that the next scan of the same target repeats, and passed ones none', async () => {
    const first = failedIssues((await scanToReport(scan)).report);
    const second = failedIssues((await scanToReport(scan)).report);
    expect(first.length).to.be.greaterThan(1);
    expect(first.map((i) => i.fingerprint)).to.deep.equal(second.map((i) => i.fingerprint));
    expect(new Set(first.map((i) => i.fingerprint)).size).to.equal(first.length);
    for (const issue of first) expect(issue.fingerprint).to.match(/^[0-9a-f]{32}$/);
    const { report } = await scanToReport(scan);
    const passed = report.reports.flatMap((r) => r.issues.filter((i) => i.status !== 'failed'));
    for (const issue of passed) expect(issue).to.not.have.property('fingerprint');
  });

  it('puts in the JSON evidence a curl command that sends the proof again with $TOKEN for the credential', async () => {
    const { report } = await scanToReport(scan);
    const curl = failedIssues(report)[0].evidence?.curl;
    expect(curl).to.be.a('string');
    expect(curl).to.include(`'${target.url}/ok'`).and.include('"Authorization: Bearer $TOKEN"');
    expect(curl).to.not.include(SECRET);
  });

  it('suppresses a listed finding: still failed, marked with its reason, no longer failing the threshold', async () => {
    const gate = ['--severity-threshold', '2', '--only-scans-above-threshold'];
    const plain = await scanToReport([...scan, ...gate]);
    expect(plain.code).to.equal(2);
    const all = failedIssues(plain.report);
    await writeFile(
      join(dir, 'accepted.yml'),
      dump(all.map((i) => ({ fingerprint: i.fingerprint, reason: 'a CDN adds them', expires: '2099-12-31' }))),
    );
    const suppressed = await scanToReport([...scan, ...gate, '--suppressions', join(dir, 'accepted.yml')]);
    expect(suppressed.code, suppressed.stderr).to.equal(0);
    for (const issue of failedIssues(suppressed.report))
      expect(issue).to.deep.include({
        status: 'failed',
        suppressed: { reason: 'a CDN adds them', expires: '2099-12-31T23:59:59.999Z' },
      });
    await writeFile(join(dir, 'report.json'), JSON.stringify(suppressed.report));
    expect((await runCli(['report', 'validate', join(dir, 'report.json')])).code).to.equal(0);
  });

  it('warns about an expired suppression and lets its finding count again', async () => {
    const gate = ['--severity-threshold', '2', '--only-scans-above-threshold'];
    const [issue] = failedIssues((await scanToReport(scan)).report);
    await writeFile(
      join(dir, 'accepted.yml'),
      dump([{ fingerprint: issue.fingerprint, reason: 'until the CDN move', expires: '2020-01-31' }]),
    );
    const result = await scanToReport([...scan, ...gate, '--suppressions', join(dir, 'accepted.yml')]);
    expect(result.code).to.equal(2);
    expect(result.stderr).to.include(
      `the suppression of ${issue.fingerprint} ("until the CDN move") expired on 2020-01-31`,
    );
    expect(failedIssues(result.report).find((i) => i.fingerprint === issue.fingerprint)).to.not.have.property(
      'suppressed',
    );
  });

  it('counts a date as in force through the end of that day, UTC', () => {
    const list = [{ fingerprint: 'a'.repeat(32), reason: 'r', expires: '2026-06-30' }];
    expect(expiryOf('2026-06-30').toISOString()).to.equal('2026-06-30T23:59:59.999Z');
    expect(activeSuppressions(list, new Date('2026-06-30T23:00:00Z')).byFingerprint.size).to.equal(1);
    const after = activeSuppressions(list, new Date('2026-07-01T00:00:00Z'));
    expect(after.byFingerprint.size).to.equal(0);
    expect(after.warnings).to.have.length(1);
  });

  describe('--report-format junit', () => {
    async function junit(extra: string[] = []): Promise<TestSuites> {
      const file = join(dir, 'junit.xml');
      const result = await runCli([
        ...scan,
        '--no-progress',
        '--report-format',
        'junit',
        '--report-file',
        file,
        ...extra,
      ]);
      expect(result.code, result.stderr).to.be.oneOf([0, 2]);
      return (await parseJunit(await readFile(file, 'utf8'))) as TestSuites;
    }
    const suiteOf = (doc: TestSuites, id: string): TestSuite =>
      doc.testsuite!.find((s) => s.name?.startsWith(`${id}: `))!;

    it('is read by a JUnit parser: a suite per check, a case per operation, a finding a failure with its evidence', async () => {
      const doc = await junit(['--scans', 'misconfiguration.http_headers']);
      const headers = suiteOf(doc, 'misconfiguration.http_headers');
      expect(headers.testcase).to.have.length(1);
      const [testCase] = headers.testcase!;
      expect(testCase.name).to.include('GET /ok');
      expect(testCase.failure).to.have.length(1);
      const text = testCase.failure![0].inner ?? '';
      const { report } = await scanToReport(scan);
      for (const issue of failedIssues(report)) {
        expect(testCase.failure![0].message).to.include(issue.name);
        expect(text).to.include(`fingerprint: ${issue.fingerprint}`);
      }
      expect(text).to.include('reproduce: curl').and.not.include(SECRET);
      expect(doc.failures).to.equal(1);
    });

    it('lists a skipped check as skipped with its reason', async () => {
      // Without --allow-destructive, a DELETE is never sent: every check on it is skipped, saying why.
      const file = join(dir, 'junit.xml');
      await runCli(
        [
          'scan',
          'curl',
          `${target.url}/ok`,
          '-X',
          'DELETE',
          '--scans',
          'misconfiguration.http_headers',
          '--no-progress',
        ].concat(['--report-format', 'junit', '--report-file', file]),
      );
      const doc = (await parseJunit(await readFile(file, 'utf8'))) as TestSuites;
      const [testCase] = suiteOf(doc, 'misconfiguration.http_headers').testcase!;
      expect(testCase.skipped).to.have.length(1);
      expect(testCase.skipped![0].message).to.match(/destructive/i);
    });

    it('skips a case whose findings are all suppressed, saying so, so the build does not fail on it', async () => {
      const all = failedIssues((await scanToReport(scan)).report);
      await writeFile(join(dir, 'accepted.yml'), dump(all.map((i) => ({ fingerprint: i.fingerprint, reason: 'CDN' }))));
      const doc = await junit(['--suppressions', join(dir, 'accepted.yml')]);
      const [testCase] = suiteOf(doc, 'misconfiguration.http_headers').testcase!;
      expect(testCase.failure).to.equal(undefined);
      expect(testCase.skipped![0].message).to.match(/suppressed/i);
      expect(doc.failures ?? 0).to.equal(0);
    });
  });
});
