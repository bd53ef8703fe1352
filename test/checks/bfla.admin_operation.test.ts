import { expect } from 'chai';
import type { Report } from '../../scanner/report/report-types.js';
import { startDemoTarget, type DemoTarget } from '../fixtures/targets/demo-api-target.js';
import { scanToReport } from '../scanner/support/run-cli.js';
import { scanTarget } from '../support/scan.js';
import { startObjectsTarget, TOKENS } from '../fixtures/targets/objects-target.js';
import { json, startTarget, type Target } from '../fixtures/targets/start-target.js';
import { bearer, expectResult } from './expect-result.js';

const ID = 'bfla.admin_operation';
const ISSUE = 'broken_function_level_authorization.admin_operation';

describe('bfla.admin_operation', () => {
  let target: Target | undefined;
  afterEach(async () => target?.close());

  it('fails with broken_function_level_authorization.admin_operation (8.6) when /admin/users answers an ordinary user', async () => {
    target = await startObjectsTarget({ checksOwner: true, adminOnly: false });
    const outcome = await scanTarget(target.url('/admin/users'), { checks: [ID], headers: bearer(TOKENS.alice) });
    expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 8.6 }, requests: 1 });
  });

  it('passes with one request when /admin/users answers 403 to an ordinary user', async () => {
    target = await startObjectsTarget({ checksOwner: true, adminOnly: true });
    const outcome = await scanTarget(target.url('/admin/users'), { checks: [ID], headers: bearer(TOKENS.alice) });
    expectResult(outcome, ID, { status: 'passed', requests: 1 });
  });

  it("is skipped after one request when the scan's own token is invalid (401), which says nothing about roles", async () => {
    target = await startObjectsTarget({ checksOwner: true, adminOnly: true });
    const outcome = await scanTarget(target.url('/admin/users'), { checks: [ID], headers: bearer('unknown-token') });
    expectResult(outcome, ID, { status: 'skipped', reason: /credential is rejected/, requests: 1 });
  });

  it('is not applicable to an ordinary operation', async () => {
    target = await startObjectsTarget({ checksOwner: true });
    const outcome = await scanTarget(target.url('/orders'), { checks: [ID], headers: bearer(TOKENS.alice) });
    expectResult(outcome, ID, { status: 'skipped', reason: /does not look administrative/, requests: 0 });
  });

  it('is skipped on an administrative path that needs no credential at all', async () => {
    target = await startTarget((_req, res) => json(res, 200, { status: 'up' }));
    const outcome = await scanTarget(target.url('/admin/health'), { checks: [ID], headers: bearer(TOKENS.alice) });
    expectResult(outcome, ID, { status: 'skipped', reason: /does not require a credential/, requests: 0 });
  });
});

const DELETE = 'DELETE /api/products/{productId}';

async function scanDelete(demo: DemoTarget, staff: boolean): Promise<Report> {
  const { report, ...run } = await scanToReport([
    'scan',
    'openapi',
    demo.url('/openapi.json'),
    '--security-schemes',
    `bearer=${demo.tokens.alice}`,
    ...(staff ? ['--identity', `staff:admin=Authorization: Bearer ${demo.tokens.admin}`] : []),
    '--scans',
    ID,
    '--include-operations',
    '*/api/products*',
    '--rate',
    '2000/s',
  ]);
  expect(run.code, run.stderr).to.equal(0);
  return report;
}

const resultOf = (report: Report) => report.reports.find((r) => r.operation?.id === DELETE && r.id === ID)!;

describe('bfla.admin_operation on a staff-only DELETE', function () {
  this.timeout(30_000);
  let demo: DemoTarget | undefined;
  afterEach(async () => demo?.close());

  it('fails when the ordinary identity deletes an item the privileged identity created for the scan, read back as gone', async () => {
    demo = await startDemoTarget();
    const issue = resultOf(await scanDelete(demo, true)).issues[0];
    expect(issue.status).to.equal('failed');
    expect(issue.details?.[0]).to.match(
      /deleted a product that staff \(admin\) created for the scan .* now answers 404/,
    );
    expect(issue.evidence?.oracle?.operation).to.equal('GET /api/products/{productId}');
    expect(demo.demo.store.tables.products.map((p) => p.id)).to.deep.equal([1, 2, 3, 4]);
  });

  it('passes when only administrators may delete, and the staff identity deletes its item after the scan', async () => {
    demo = await startDemoTarget({ secure: true });
    expect(resultOf(await scanDelete(demo, true)).issues[0].status).to.equal('passed');
    expect(demo.demo.store.tables.products.map((p) => p.id)).to.deep.equal([1, 2, 3, 4]);
  });

  it('is skipped, sending nothing, without a privileged identity to create the object', async () => {
    demo = await startDemoTarget();
    const result = resultOf(await scanDelete(demo, false));
    expect(result.issues[0].status).to.equal('skipped');
    expect(JSON.stringify(result)).to.match(
      /created for the scan, and the scan has none: give one with --identity staff:admin=/,
    );
    expect(result.issues[0].scans ?? []).to.deep.equal([]);
  });
});
