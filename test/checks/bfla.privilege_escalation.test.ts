import { expect } from 'chai';
import { raisedValue } from '../../checks/bfla.privilege_escalation.js';
import type { Report } from '../../scanner/report/report-types.js';
import { startDemoTarget, type DemoTarget } from '../fixtures/targets/demo-api-target.js';
import { scanToReport } from '../scanner/support/run-cli.js';

const ID = 'bfla.privilege_escalation';
const ISSUE = 'broken_function_level_authorization.privilege_escalation';

async function scanRoles(demo: DemoTarget): Promise<Report> {
  const { report, ...run } = await scanToReport([
    'scan',
    'openapi',
    demo.url('/openapi.json'),
    // Signed in by the scan: the vulnerable twin's GET /api/account lists every account, so the login says who she is.
    '--identity',
    `first=login:username=alice&password=${demo.passwords.alice}`,
    '--scans',
    ID,
    '--scans',
    'bfla.admin_operation',
    '--scans',
    'ssrf.url_parameter',
    '--include-operations',
    'PUT /api/user-roles',
    '--include-operations',
    'GET /api/account',
    '--include-operations',
    'POST /api/login',
    '--include-operations',
    'POST /api/staff/imports',
    '--rate',
    '2000/s',
  ]);
  expect(run.code, run.stderr).to.equal(0);
  return report;
}

const issueOf = (report: Report, operation: string, check: string, issue: string) =>
  report.reports.find((r) => r.operation?.id === operation && r.id === check)?.issues.find((i) => i.id === issue);

describe('bfla.privilege_escalation', function () {
  this.timeout(30_000);
  let demo: DemoTarget | undefined;
  afterEach(async () => demo?.close());

  it("fails when any user may set its own role, proves it by the identity's own read, and sets the role back", async () => {
    demo = await startDemoTarget();
    const report = await scanRoles(demo);
    const raised = issueOf(report, 'PUT /api/user-roles', ID, ISSUE)!;
    expect(raised.status).to.equal('failed');
    expect(raised.cvss.score).to.equal(8.7);
    expect(raised.details?.[0]).to.match(/changed its own "role" from "user" to "admin" .*set back to "user"/);
    expect(raised.evidence?.oracle).to.include({ operation: 'GET /api/account' });
    expect(demo.demo.store.users.find((u) => u.username === 'alice')).to.include({ role: 'user', isAdmin: false });
  });

  it('then runs the function-level and input checks as the raised identity where it was refused, the chain in evidence', async () => {
    demo = await startDemoTarget();
    const report = await scanRoles(demo);
    for (const [check, issue] of [
      ['bfla.admin_operation', 'broken_function_level_authorization.admin_operation'],
      ['ssrf.url_parameter', 'server_side_request_forgery.url_parameter'],
    ]) {
      const reached = issueOf(report, 'POST /api/staff/imports', check, issue)!;
      expect(reached.status, check).to.equal('failed');
      expect(reached.evidence?.chain?.map((s) => `${s.step} ${s.role} ${s.operation}`)).to.deep.equal([
        '1 raised PUT /api/user-roles',
        '2 reached POST /api/staff/imports',
      ]);
      // Step 1 cites the exchanges that proved the raise, and the reached check's report carries them.
      const raiseIds = reached.evidence?.chain?.[0].scans ?? [];
      expect(raiseIds, check).to.not.deep.equal([]);
      const carried = report.reports
        .find((r) => r.operation?.id === 'POST /api/staff/imports' && r.id === check)!
        .scans.map((scan) => scan.id);
      expect(carried, check).to.include.members(raiseIds);
      const raisedBy = report.reports.find((r) => r.operation?.id === 'PUT /api/user-roles' && r.id === ID)!;
      expect(
        raisedBy.scans.map((scan) => scan.id),
        check,
      ).to.include.members(raiseIds);
    }
    expect(demo.demo.store.users.find((u) => u.username === 'alice')).to.include({ role: 'user' });
  });

  it('passes when the role update is for administrators only, and no staff operation opens up', async () => {
    demo = await startDemoTarget({ secure: true });
    const report = await scanRoles(demo);
    expect(issueOf(report, 'PUT /api/user-roles', ID, ISSUE)?.status).to.equal('passed');
    expect(
      issueOf(
        report,
        'POST /api/staff/imports',
        'bfla.admin_operation',
        'broken_function_level_authorization.admin_operation',
      )?.status,
    ).to.equal('passed');
  });

  it('picks the most privileged value the description allows that the identity does not hold', () => {
    expect(raisedValue({ in: 'body', name: 'role', enum: ['Customer', 'Employee', 'Chef'] }, 'Customer')).to.equal(
      'Employee',
    );
    expect(raisedValue({ in: 'body', name: 'role', enum: ['user', 'staff', 'admin'] }, 'user')).to.equal('admin');
    expect(raisedValue({ in: 'body', name: 'role', enum: ['user', 'admin'] }, 'admin')).to.equal(undefined);
    expect(raisedValue({ in: 'body', name: 'isAdmin', type: 'boolean' }, false)).to.equal(true);
    expect(raisedValue({ in: 'body', name: 'groups', type: 'array' }, ['readers'])).to.deep.equal(['readers', 'admin']);
  });
});
