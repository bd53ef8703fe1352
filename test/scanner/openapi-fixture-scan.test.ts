import { expect } from 'chai';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Report } from '../../scanner/report/report-types.js';
import { reportProblems } from '../../scanner/report/validate-report.js';
import { startInventoryTarget, type InventoryTarget } from './support/inventory-target.js';
import { runCli } from './support/run-cli.js';
import { sarifProblems } from './support/sarif-validator.js';

const spec = fileURLToPath(new URL('fixtures/inventory.openapi.yaml', import.meta.url));

/** Everything the fixture plants (support/inventory-target.ts), as `operation | check | issue`. */
const PLANTED = [
  'GET /audit-log | jwt.alg_none | broken_authentication.alg_none',
  'GET /catalog | resource.rate_limit_absent | resource_consumption.rate_limit_absent',
  'GET /debug/echo | misconfiguration.http_trace | security_misconfiguration.http_trace_method_enabled',
  'GET /invoices/{invoiceId} | bola.read | broken_object_level_authorization.read',
  'GET /me | misconfiguration.cors | security_misconfiguration.cors_null_origin_allowed',
  'GET /me | misconfiguration.cors | security_misconfiguration.cors_origin_reflected',
  'POST /sessions | misconfiguration.http_cookies | security_misconfiguration.http_cookies_not_http_only',
  'POST /sessions | misconfiguration.http_cookies | security_misconfiguration.http_cookies_not_secure',
  'POST /sessions | misconfiguration.http_cookies | security_misconfiguration.http_cookies_without_expires',
  'POST /sessions | misconfiguration.http_cookies | security_misconfiguration.http_cookies_without_same_site',
];
/** Informational by design: the description itself declares these operations public (`security: []`). */
const PUBLIC = ['GET /health', 'GET /catalog', 'GET /catalog/{productId}', 'POST /sessions', 'GET /debug/echo'].map(
  (operation) => `${operation} | discover.accept_unauthenticated | discover.accept_unauthenticated_operation`,
);

function failedFindings(report: Report): string[] {
  return report.reports
    .flatMap((item) =>
      item.issues
        .filter((issue) => issue.status === 'failed')
        .map((issue) => `${item.operation?.id} | ${item.id} | ${issue.id}`),
    )
    .sort();
}

/**
 * A request as a comparable line. Fresh on every run by design, so left out: the Authorization value (forged tokens
 * are signed with keys generated per scan; jku/x5u point at a callback on a random port), the Origin of the CORS probe
 * (a random `.invalid` origin, so no allowlist can contain it) and the random part of the deliberately invalid
 * credential auth.baseline sends (`gatehouse-invalid-<hex>`, in whichever header, query or cookie the scheme uses),
 * the canary the TRACE/TRACK checks look for in an echo (`X-Gatehouse-Trace`), and the random markers of the
 * ssrf, user-enumeration and mass-assignment probes.
 */
const FRESH_HEADERS = new Set(['authorization', 'origin', 'x-gatehouse-trace']);
function requestLine(request: InventoryTarget['requests'][number], known: string[]): string {
  const headers = Object.entries(request.headers)
    .filter(([name]) => !FRESH_HEADERS.has(name))
    .map(([name, value]) => `${name}=${String(value)}`)
    .sort();
  const authorization = request.headers.authorization === undefined ? undefined : String(request.headers.authorization);
  const credential = authorization === undefined ? 'none' : known.includes(authorization) ? authorization : 'forged';
  const line = `${request.method} ${request.url} ${request.body} [${headers.join('; ')}] authorization:${credential}`;
  return (
    line
      .replace(/gatehouse-invalid-[0-9a-f]+/g, 'gatehouse-invalid-…')
      // Fresh per run too: the ssrf callback's port and path, the unknown user and wrong password of user enumeration,
      // the unique names and values mass assignment creates objects with.
      .replace(/127\.0\.0\.1(:|%3A)\d+((\/|%2F)gatehouse-)/gi, '127.0.0.1$1…$2')
      .replace(/(gatehouse|Gatehouse-wrong)-[0-9a-f]{8,}/g, '$1-…')
      .replace(/([+_-])gh[0-9a-f]{8}/g, '$1gh…')
      .replace(/(gh_|Gh-)[0-9a-f]{10}/g, '$1…')
  );
}

describe('scanner scan openapi against a 24-operation OpenAPI 3.1 API mixing credentials', () => {
  let target: InventoryTarget;
  let dir: string;
  let report: Report;
  let firstRun: string[];
  let sarif: unknown;
  let secondRun: string[];

  // Loopback target: a generous rate keeps the suite fast; pacing is tested in rate-limiter.test.ts. The identity
  // canary's periodic re-validation fires after n requests *without* a natural one, which depends on how concurrent
  // checks interleave, so it is pushed out of reach here to compare two runs request for request (it has its own
  // tests in safety-and-completeness.test.ts).
  const scan = (...flags: string[]) =>
    runCli([
      'scan',
      'openapi',
      spec,
      '--base-url',
      target.baseUrl,
      ...target.securitySchemes,
      '--as-other',
      target.asOther,
      '--rate',
      '2000/s',
      '--no-progress',
      '--canary-every',
      '1000000',
      ...flags,
    ]);

  before(async function () {
    // Two full scans of 24 operations with every check: a few seconds each on an idle machine, but far longer when
    // the test runner shares its cores with other work, so the hook gets a budget of its own.
    this.timeout(120_000);
    target = await startInventoryTarget();
    dir = await mkdtemp(join(tmpdir(), 'scanner-inventory-'));
    const json = await scan('--report-format', 'json', '--report-file', join(dir, 'full.json'));
    expect(json.code, json.stderr).to.equal(0);
    report = JSON.parse(await readFile(join(dir, 'full.json'), 'utf8')) as Report;
    firstRun = target.requests
      .splice(0)
      .map((r) => requestLine(r, target.authorizations))
      .sort();
    const sarifRun = await scan('--report-format', 'sarif');
    expect(sarifRun.code, sarifRun.stderr).to.equal(0);
    sarif = JSON.parse(sarifRun.stdout);
    secondRun = target.requests
      .splice(0)
      .map((r) => requestLine(r, target.authorizations))
      .sort();
  });
  after(async () => {
    await target.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('finds exactly the planted issues, and no others', () => {
    expect(failedFindings(report)).to.deep.equal([...PLANTED, ...PUBLIC].sort());
  });

  it('writes a report that validates, with all 24 operations in the openapi section', () => {
    expect(reportProblems(report)).to.deep.equal([]);
    const operations = Object.entries(report.openapi!.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method} ${path}`),
    );
    expect(operations).to.have.length(24);
    const auditLog = report.openapi!.paths['/audit-log'].GET as { issues: { id: string }[] };
    expect(auditLog.issues.map((i) => i.id)).to.deep.equal(['broken_authentication.alg_none']);
    expect(report.options.requestsSent).to.be.a('number').and.to.be.greaterThan(24);
  });

  it('sends no destructive request at defaults but the clean-up of what it created: DELETE operations are skipped with the reason', () => {
    // docs/architecture.md §2.6: an object the scan's own POST /orders or POST /webhooks made (the target names them ord-new and
    // 8) may be deleted again, and the clean-up does so once; nothing the target held before the scan is.
    const deleted = firstRun.filter((line) => line.startsWith('DELETE ')).map((line) => line.split(' ')[1]);
    expect(
      deleted.every((path) => path?.endsWith('/orders/ord-new') || path?.endsWith('/webhooks/8')),
      deleted.join(', '),
    ).to.equal(true);
    expect(report.completeness?.leftBehind).to.equal(undefined);
    const deletes = report.reports.filter((r) => r.operation?.id.startsWith('DELETE '));
    expect(deletes).to.not.have.length(0);
    for (const item of deletes)
      expect(
        item.scans.filter((scan) => scan.request?.method === 'DELETE'),
        item.id,
      ).to.deep.equal([]);
    expect(deletes.some((r) => /not sent without --allow-destructive/.test(r.reason ?? ''))).to.equal(true);
  });

  it('sends the same requests on a second run (same URLs, parameters, bodies and headers)', () => {
    expect(secondRun).to.have.length(firstRun.length);
    expect(secondRun).to.deep.equal(firstRun);
  });

  it('fills generated path parameters with ids from the first identity’s answers, and keeps the ones the description gives', () => {
    const urls = new Set(report.reports.map((r) => `${r.operation?.id} ${r.scans[0]?.request?.url ?? ''}`));
    const urlOf = (id: string): string =>
      [...urls].find((line) => line.startsWith(`${id} `) && line.length > id.length + 1)!.slice(id.length + 1);
    expect(urlOf('GET /orders/{orderId}')).to.equal(`${target.baseUrl}/orders/ord-a1`);
    expect(urlOf('GET /invoices/{invoiceId}')).to.equal(`${target.baseUrl}/invoices/inv-a1`);
    expect(urlOf('GET /catalog/{productId}')).to.equal(`${target.baseUrl}/catalog/p-1`);
    expect(urlOf('GET /exports/{exportId}').startsWith(`${target.baseUrl}/exports/exp-1`)).to.equal(true);
    expect(urlOf('GET /reports/{year}')).to.equal(`${target.baseUrl}/reports/2020`);
  });

  it('writes SARIF that validates against the SARIF 2.1.0 schema: one rule per issue id, one result per finding', () => {
    expect(sarifProblems(sarif)).to.deep.equal([]);
    const run = (
      sarif as {
        runs: {
          tool: { driver: { rules: { id: string }[] } };
          results: { ruleId: string; properties: { operation: string } }[];
        }[];
      }
    ).runs[0];
    const issueIds = [...new Set([...PLANTED, ...PUBLIC].map((line) => line.split(' | ')[2]))].sort();
    expect(run.tool.driver.rules.map((r) => r.id).sort()).to.deep.equal(issueIds);
    expect(run.results.map((r) => `${r.properties.operation} | ${r.ruleId}`).sort()).to.deep.equal(
      [...PLANTED, ...PUBLIC].map((line) => `${line.split(' | ')[0]} | ${line.split(' | ')[2]}`).sort(),
    );
  });

  it('--shard 1/3, 2/3 and 3/3 merged give the unsharded scan’s findings in one valid report', async () => {
    const files: string[] = [];
    for (const slice of ['1/3', '2/3', '3/3']) {
      const file = join(dir, `shard-${slice.replace('/', '-of-')}.json`);
      const result = await scan('--shard', slice, '--report-format', 'json', '--report-file', file);
      expect(result.code, result.stderr).to.equal(0);
      files.push(file);
    }
    target.requests.length = 0;
    const merged = await runCli(['report', 'merge', ...files]);
    expect(merged.code, merged.stderr).to.equal(0);
    const mergedReport = JSON.parse(merged.stdout) as Report;
    expect(reportProblems(mergedReport)).to.deep.equal([]);
    expect(failedFindings(mergedReport)).to.deep.equal(failedFindings(report));
    const statuses = (r: Report): string[] =>
      r.reports.map((item) => `${item.operation?.id} | ${item.id} | ${item.status}`).sort();
    expect(statuses(mergedReport)).to.deep.equal(statuses(report));
  });

  it('--baseline reports only the findings that are not in the baseline', async () => {
    // The baseline: the full report without its alg none finding, as if that weakness were new since.
    const baseline = structuredClone(report);
    for (const item of baseline.reports) {
      if (item.id !== 'jwt.alg_none') continue;
      item.issues = item.issues.map((issue) => ({ ...issue, status: 'passed' as const }));
      item.status = 'passed';
    }
    expect(reportProblems(baseline)).to.deep.equal([]);
    await writeFile(join(dir, 'baseline.json'), JSON.stringify(baseline));
    const result = await scan(
      '--scans',
      'jwt.alg_none',
      '--scans',
      'generic.*',
      '--scans',
      'misconfiguration.cors',
      '--baseline',
      join(dir, 'baseline.json'),
      '--report-format',
      'json',
    );
    expect(result.code, result.stderr).to.equal(0);
    const again = JSON.parse(result.stdout) as Report;
    expect(failedFindings(again)).to.deep.equal(['GET /audit-log | jwt.alg_none | broken_authentication.alg_none']);
    const suppressed = again.reports
      .filter((item) => item.reason === 'every finding is in the baseline')
      .map((item) => `${item.operation?.id} | ${item.id}`);
    expect(suppressed.sort()).to.deep.equal(['GET /me | misconfiguration.cors']);
    target.requests.length = 0;
  });
});
