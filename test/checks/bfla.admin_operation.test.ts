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
