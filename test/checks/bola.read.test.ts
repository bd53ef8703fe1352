import { scanTarget } from '../support/scan.js';
import { ORDER_ID, startObjectsTarget, TOKENS } from '../fixtures/targets/objects-target.js';
import type { Target } from '../fixtures/targets/start-target.js';
import { bearer, expectResult } from './expect-result.js';

const ID = 'bola.read';
const ISSUE = 'broken_object_level_authorization.read';
const asBob = { asOther: { name: 'Authorization', value: `Bearer ${TOKENS.bob}` } };

describe('bola.read', () => {
  let target: Target | undefined;
  afterEach(async () => target?.close());

  it("fails with broken_object_level_authorization.read (7.1) when bob reads alice's order", async () => {
    target = await startObjectsTarget({ checksOwner: false });
    const outcome = await scanTarget(target.url(`/orders/${ORDER_ID}`), { checks: [ID], headers: bearer(TOKENS.alice), options: asBob });
    expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 7.1 }, requests: 2 });
  });

  it("passes with two requests when bob gets 404 for alice's order", async () => {
    target = await startObjectsTarget({ checksOwner: true });
    const outcome = await scanTarget(target.url(`/orders/${ORDER_ID}`), { checks: [ID], headers: bearer(TOKENS.alice), options: asBob });
    expectResult(outcome, ID, { status: 'passed', requests: 2 });
  });

  it('is not applicable to a path that names no object (/me answers each user their own profile)', async () => {
    target = await startObjectsTarget({ checksOwner: false });
    const outcome = await scanTarget(target.url('/me'), { checks: [ID], headers: bearer(TOKENS.alice), options: asBob });
    expectResult(outcome, ID, { status: 'skipped', reason: /names no object/, requests: 0 });
  });

  it('is skipped without a request when --as-other is not given', async () => {
    target = await startObjectsTarget({ checksOwner: false });
    const outcome = await scanTarget(target.url(`/orders/${ORDER_ID}`), { checks: [ID], headers: bearer(TOKENS.alice) });
    expectResult(outcome, ID, { status: 'skipped', reason: /--as-other/, requests: 0 });
  });

  it('is skipped when --as-other is the scan\'s own credential', async () => {
    target = await startObjectsTarget({ checksOwner: false });
    const outcome = await scanTarget(target.url(`/orders/${ORDER_ID}`), {
      checks: [ID],
      headers: bearer(TOKENS.alice),
      options: { asOther: { name: 'authorization', value: `Bearer ${TOKENS.alice}` } },
    });
    expectResult(outcome, ID, { status: 'skipped', reason: /same credential/, requests: 0 });
  });

  it('is skipped when the first identity gets 404 itself (no object of theirs)', async () => {
    target = await startObjectsTarget({ checksOwner: true });
    const outcome = await scanTarget(target.url('/orders/ord_0000000000'), { checks: [ID], headers: bearer(TOKENS.alice), options: asBob });
    expectResult(outcome, ID, { status: 'skipped', reason: /gets 404/, requests: 1 });
  });
});
