/**
 * The HTML and JUnit formats as plain strings (no browser: html.browser.test.ts opens the page when a Chromium is
 * found): the HTML report's sections and its escaping of what a target sent, the attempts an oracle and a privilege
 * chain cite as evidence (as the JSON report has them), and once-per-scan operations labelled alike by every format.
 */
import { expect } from 'chai';
import type { CheckDefinition, Operation } from '../../../scanner/api.js';
import { formatHtml } from '../../../scanner/formatters/html.js';
import { formatJunit } from '../../../scanner/formatters/junit.js';
import { buildReport } from '../../../scanner/report/build-report.js';
import { failedIssues } from '../../../scanner/report/failed-issues.js';
import { findingRows } from '../../../scanner/report/findings.js';
import { resultFingerprint } from '../../../scanner/report/issue-fingerprint.js';
import type { Attempt, CheckResult, Finding, ScanOutcome } from '../../../scanner/scan-result.js';

const op = (method: string, path: string): Operation => ({
  id: `${method} ${path}`,
  method,
  url: `http://target.test${path}`,
  path,
  headers: {},
  cookies: {},
  securitySchemes: [],
});

const attempt = (id: string, method: string, path: string, body: string): Attempt => ({
  id,
  request: { method, url: `http://target.test${path}`, headers: {} },
  response: { status: 200, headers: { 'content-type': 'application/json' }, setCookies: [], body, durationMs: 3 },
});

const definition: CheckDefinition = {
  id: 't.check',
  name: 'T check',
  issues: [
    {
      id: 't.write',
      name: 'Write by another identity',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N', score: 8.1 },
      classifications: { owasp: 'API1:2023 Broken Object Level Authorization' },
    },
    { id: 't.minor', name: 'Minor issue', cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N', score: 2.0 } },
  ],
  maxCvss: 10,
  async run() {},
};

function outcome(results: Omit<CheckResult, 'startTime' | 'endTime'>[], operations: Operation[]): ScanOutcome {
  const now = new Date('2026-01-02T03:04:05Z');
  return {
    kind: 'openapi',
    startTime: now,
    endTime: now,
    requestsSent: results.reduce((n, r) => n + r.attempts.length, 0),
    operations,
    checks: [{ definition, file: 't.check.ts', origin: 'custom' }],
    results: results.map((r) => ({ ...r, startTime: now, endTime: now })),
  };
}

describe('scanner: the HTML and JUnit formats as strings', () => {
  const put = op('PUT', '/items/{id}');
  const write = attempt('w1', 'PUT', '/items/7', '{"ok":true}');
  const readBack = attempt('r1', 'GET', '/items/7', '{"owner":"READ-BACK-MARKER"}');
  const unrelated = attempt('u1', 'GET', '/unrelated', '{"note":"UNRELATED-MARKER"}');

  it('shows the exchanges an oracle and a privilege chain cite, as the JSON report does', () => {
    const chained = attempt('c1', 'POST', '/roles', '{"role":"CHAIN-MARKER"}');
    const finding: Finding = {
      issueId: 't.write',
      detail: 'another identity changed item 7',
      attemptId: 'w1',
      oracle: { kind: 'read-back', operation: 'GET /items/{id}', attemptIds: ['r1'] },
      chain: [{ step: 1, role: 'raised', operation: 'POST /roles', detail: 'raised to admin', attemptIds: ['c1'] }],
    };
    const scan = outcome(
      [
        {
          checkId: 't.check',
          operationId: put.id,
          status: 'failed',
          findings: [finding],
          attempts: [unrelated, write, readBack, chained],
        },
      ],
      [put],
    );

    const [issue] = failedIssues(scan);
    expect(issue.evidence.map((a) => a.id)).to.deep.equal(['w1', 'r1', 'c1']);
    const json = buildReport(scan, {}).reports[0].issues.find((i) => i.id === 't.write')!;
    expect(json.scans!.filter((s) => s.status === 'failed').map((s) => s.id)).to.deep.equal(['w1', 'r1', 'c1']);

    const html = formatHtml(scan);
    expect(html).to.include('Evidence: 3 exchanges');
    expect(html).to.include('GET http://target.test/items/7');
    expect(html).to.include('READ-BACK-MARKER');
    expect(html).to.include('CHAIN-MARKER');
    expect(html).to.not.include('UNRELATED-MARKER');
  });

  it('reproduces with the oracle exchange when a finding cites nothing else (JUnit and JSON alike)', () => {
    const scan = outcome(
      [
        {
          checkId: 't.check',
          operationId: put.id,
          status: 'failed',
          findings: [
            {
              issueId: 't.write',
              oracle: { kind: 'read-back', operation: 'GET /items/{id}', attemptIds: ['r1'] },
            },
          ],
          attempts: [unrelated, readBack],
        },
      ],
      [put],
    );
    const junit = formatJunit(scan);
    const reproduce = /reproduce: (.*)/.exec(junit)?.[1];
    expect(reproduce).to.include('http://target.test/items/7');
    expect(reproduce).to.not.include('/unrelated');
    const json = buildReport(scan, {}).reports[0].issues.find((i) => i.id === 't.write')!;
    expect(json.evidence?.curl).to.include('http://target.test/items/7');
    expect(junit).to.include(`fingerprint: ${json.fingerprint}`);
  });

  it('escapes what a finding says and what the target sent, and has every section', () => {
    const get = op('GET', '/items');
    const del = op('DELETE', '/items/{id}');
    const hostile = `<script>alert("x")</script> & 'more'`;
    const found: CheckResult = {
      checkId: 't.check',
      operationId: put.id,
      status: 'failed',
      findings: [{ issueId: 't.write', detail: `saw ${hostile}`, attemptId: 'w1' }],
      attempts: [{ ...write, response: { ...write.response!, body: `<script>document.title='pwned'</script>` } }],
      startTime: new Date(),
      endTime: new Date(),
    };
    const accepted: CheckResult = {
      checkId: 't.check',
      operationId: get.id,
      status: 'failed',
      findings: [{ issueId: 't.minor', detail: 'minor thing' }],
      attempts: [attempt('g1', 'GET', '/items', '[]')],
      startTime: new Date(),
      endTime: new Date(),
    };
    const scan = outcome(
      [
        found,
        accepted,
        {
          checkId: 't.check',
          operationId: del.id,
          status: 'skipped',
          reason: 'destructive <b>refused</b>',
          findings: [],
          attempts: [],
        },
      ],
      [put, get, del],
    );
    scan.suppressions = new Map([[resultFingerprint(accepted, 't.minor'), { reason: 'known <thing>' }]]);

    const html = formatHtml(scan);
    expect(html).to.not.match(/<script/i);
    expect(html).to.include('saw &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;more&#39;');
    expect(html).to.include('&lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt;');
    expect(html).to.include(`content="default-src 'none'; style-src 'unsafe-inline'"`);
    expect(html).to.include('<h1>Gatehouse scanner report</h1>');
    expect(html).to.include('<title>Gatehouse scanner report — http://target.test</title>');
    expect(html).to.match(/<p class="advice">[^<]+/);
    expect(html).to.include('<section id="high"><h2>High (1)</h2>');
    expect(html).to.include('<dt>Operation</dt><dd>PUT /items/{id}</dd>');
    expect(html).to.include('<section id="suppressed"><h2>Suppressed (1)</h2>');
    expect(html).to.include('<dt>Suppressed</dt><dd>known &lt;thing&gt;</dd>');
    expect(html).to.include('<h2>Checks that did not run (1)</h2>');
    expect(html).to.include('<td>destructive &lt;b&gt;refused&lt;/b&gt;</td>');
    expect(html).to.not.include('<section id="low">');
  });

  it('labels a finding on the once-per-scan operation the same in the table rows as in HTML and JUnit', () => {
    const shard = op('GET', '/items');
    const once = op('GET', '/');
    const scan = outcome(
      [
        {
          checkId: 't.check',
          operationId: once.id,
          status: 'failed',
          findings: [{ issueId: 't.write' }],
          attempts: [],
        },
      ],
      [shard],
    );
    scan.oncePerScanOperation = { ...once, id: 'once-per-scan' };
    scan.results[0].operationId = 'once-per-scan';
    expect(findingRows(scan).map((r) => r.operation)).to.deep.equal(['GET /']);
    expect(failedIssues(scan).map((i) => i.operation)).to.deep.equal(['GET /']);
    expect(formatJunit(scan)).to.include('name="GET /"');
  });
});
