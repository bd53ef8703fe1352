import { scanTarget } from '../support/scan.js';
import { ORDER_ID, startObjectsTarget, TOKENS } from '../fixtures/targets/objects-target.js';
import type { Target } from '../fixtures/targets/start-target.js';
import { bearer, expectResult } from './expect-result.js';

const ID = 'bola.modify';
const ISSUE = 'broken_object_level_authorization.modify';
const asBob = { asOther: { name: 'Authorization', value: `Bearer ${TOKENS.bob}` } };
const patch = JSON.stringify({ quantity: 200 });

describe('bola.modify', () => {
  let target: Target | undefined;
  afterEach(async () => target?.close());

  it("fails with broken_object_level_authorization.modify (7.1) when bob's PATCH of alice's order is accepted", async () => {
    target = await startObjectsTarget({ checksOwner: false });
    const outcome = await scanTarget(target.url(`/orders/${ORDER_ID}`), {
      checks: [ID],
      method: 'PATCH',
      body: patch,
      headers: { ...bearer(TOKENS.alice), 'Content-Type': 'application/json' },
      options: asBob,
    });
    expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 7.1 }, requests: 1 });
  });

  it("passes with one request when bob's PATCH gets 404", async () => {
    target = await startObjectsTarget({ checksOwner: true });
    const outcome = await scanTarget(target.url(`/orders/${ORDER_ID}`), {
      checks: [ID],
      method: 'PATCH',
      body: patch,
      headers: { ...bearer(TOKENS.alice), 'Content-Type': 'application/json' },
      options: asBob,
    });
    expectResult(outcome, ID, { status: 'passed', requests: 1 });
  });

  it('is not applicable to reads', async () => {
    target = await startObjectsTarget({ checksOwner: false });
    const outcome = await scanTarget(target.url(`/orders/${ORDER_ID}`), { checks: [ID], headers: bearer(TOKENS.alice), options: asBob });
    expectResult(outcome, ID, { status: 'skipped', reason: /not a write/, requests: 0 });
  });

  it("is skipped when the first identity's own write failed (auth.baseline got 404)", async () => {
    target = await startObjectsTarget({ checksOwner: true });
    const outcome = await scanTarget(target.url('/orders/ord_0000000000'), { checks: [ID], method: 'DELETE', headers: bearer(TOKENS.alice), options: asBob });
    expectResult(outcome, ID, { status: 'skipped', reason: /own request got 404/, requests: 0 });
  });
});
