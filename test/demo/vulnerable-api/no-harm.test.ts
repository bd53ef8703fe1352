/**
 * A full default scan of both demo twins (alice signed in by the scan, bob as the other identity, the admin as a
 * privileged one) harms nothing: the catalogue and the orders are as they were, every seeded account keeps its role,
 * e-mail, password, display name and keys, and each account the scan created is gone or listed as left behind.
 */
import { expect } from 'chai';
import type { Report } from '../../../scanner/report/report-types.js';
import { startDemoTarget, type DemoTarget } from '../../fixtures/targets/demo-api-target.js';
import { scanToReport } from '../../scanner/support/run-cli.js';

const SEEDED = ['alice', 'bob', 'admin'];
const FIELDS = ['id', 'username', 'email', 'displayName', 'role', 'isAdmin', 'password', 'passwordHash', 'apiKey'];

function dump(demo: DemoTarget) {
  const { store } = demo.demo;
  return {
    products: structuredClone(store.tables.products),
    orders: structuredClone(store.orders),
    seeded: store.users
      .filter((u) => SEEDED.includes(u.username))
      .map((u) => Object.fromEntries(FIELDS.filter((f) => u[f] !== undefined).map((f) => [f, u[f]]))),
  };
}

async function scan(demo: DemoTarget): Promise<Report> {
  const { report, ...run } = await scanToReport([
    'scan',
    'openapi',
    demo.url('/openapi.json'),
    '--identity',
    `first=login:username=alice&password=${demo.passwords.alice}`,
    '--as-other',
    `Authorization: Bearer ${demo.tokens.bob}`,
    '--identity',
    `staff:admin=Authorization: Bearer ${demo.tokens.admin}`,
    '--rate',
    '2000/s',
  ]);
  expect(run.code, run.stderr).to.equal(0);
  return report;
}

for (const secure of [false, true])
  describe(`a default scan of the ${secure ? 'secure' : 'vulnerable'} demo twin`, function () {
    this.timeout(60_000);
    it("leaves everything but the scan's own accounts as it was, the scan identities' roles and credentials restored", async () => {
      const demo = await startDemoTarget({ secure });
      try {
        const before = dump(demo);
        const report = await scan(demo);
        expect(dump(demo)).to.deep.equal(before);
        // auth.baseline's as-given PATCH /api/account wrote the description's example name onto alice's record: the
        // scan set it back after the checks, and says so.
        expect(report.completeness?.restoredRecords).to.deep.include({
          identity: 'first',
          operation: 'PATCH /api/account',
          fields: ['displayName'],
          status: 200,
          restored: true,
        });
        const left = new Set((report.completeness?.leftBehind ?? []).map((o) => o.keys.username ?? o.keys.id));
        const extra = demo.demo.store.users.filter((u) => !SEEDED.includes(u.username));
        for (const user of extra) expect(left.has(user.username) || left.has(user.id), user.username).to.equal(true);
      } finally {
        await demo.close();
      }
    });
  });
