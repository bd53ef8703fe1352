import { expect } from 'chai';
import { startCollectionTarget } from '../fixtures/targets/collection-target.js';
import { resultOf, scanTarget } from '../support/scan.js';
import { scanDocument } from './scan-document.js';
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
    const outcome = await scanTarget(target.url(`/orders/${ORDER_ID}`), {
      checks: [ID],
      headers: bearer(TOKENS.alice),
      options: asBob,
    });
    expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 7.1 }, requests: 2 });
  });

  it("passes with two requests when bob gets 404 for alice's order", async () => {
    target = await startObjectsTarget({ checksOwner: true });
    const outcome = await scanTarget(target.url(`/orders/${ORDER_ID}`), {
      checks: [ID],
      headers: bearer(TOKENS.alice),
      options: asBob,
    });
    expectResult(outcome, ID, { status: 'passed', requests: 2 });
  });

  it('is skipped on a path that names no object and lists none (/me answers each user their own profile)', async () => {
    target = await startObjectsTarget({ checksOwner: false });
    const outcome = await scanTarget(target.url('/me'), {
      checks: [ID],
      headers: bearer(TOKENS.alice),
      options: asBob,
    });
    expectResult(outcome, ID, { status: 'skipped', reason: /neither an object in the path nor a list/, requests: 1 });
  });

  it('is skipped without a request when --as-other is not given', async () => {
    target = await startObjectsTarget({ checksOwner: false });
    const outcome = await scanTarget(target.url(`/orders/${ORDER_ID}`), {
      checks: [ID],
      headers: bearer(TOKENS.alice),
    });
    expectResult(outcome, ID, { status: 'skipped', reason: /--as-other/, requests: 0 });
  });

  it("is skipped when --as-other is the scan's own credential", async () => {
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
    const outcome = await scanTarget(target.url('/orders/ord_0000000000'), {
      checks: [ID],
      headers: bearer(TOKENS.alice),
      options: asBob,
    });
    expectResult(outcome, ID, { status: 'skipped', reason: /gets 404/, requests: 1 });
  });

  it("fails on a collection when bob's list holds alice's orders, citing both answers", async () => {
    target = await startCollectionTarget({ scoped: false });
    const outcome = await scanTarget(target.url('/orders'), {
      checks: [ID],
      headers: bearer(TOKENS.alice),
      options: asBob,
    });
    expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 7.1 }, requests: 2 });
    expect(resultOf(outcome, ID).findings[0].detail).to.match(
      /lists 3 of the first identity's 3 objects \(ids ord_A1xq93kd0, ord_A2bb71mz4, ord_B1pp02qa8\)/,
    );
  });

  it('is skipped on a directory whose items name no owner (every user sees every user by design)', async () => {
    target = await startCollectionTarget({ scoped: false });
    const outcome = await scanTarget(target.url('/directory'), {
      checks: [ID],
      headers: bearer(TOKENS.alice),
      options: asBob,
    });
    expectResult(outcome, ID, { status: 'skipped', reason: /name no owner/, requests: 1 });
  });

  it('passes on a collection that lists each user only their own orders', async () => {
    target = await startCollectionTarget({ scoped: true });
    const outcome = await scanTarget(target.url('/orders'), {
      checks: [ID],
      headers: bearer(TOKENS.alice),
      options: asBob,
    });
    expectResult(outcome, ID, { status: 'passed', requests: 2 });
  });

  it("treats a name under a plural segment as an object in curl scans (/users/alice), failing when bob reads alice's profile", async () => {
    target = await startCollectionTarget({ scoped: false });
    const vulnerable = await scanTarget(target.url('/users/alice'), {
      checks: [ID],
      headers: bearer(TOKENS.alice),
      options: asBob,
    });
    expectResult(vulnerable, ID, { status: 'failed', issues: { [ISSUE]: 7.1 }, requests: 2 });
    await target.close();
    target = await startCollectionTarget({ scoped: true });
    const safe = await scanTarget(target.url('/users/alice'), {
      checks: [ID],
      headers: bearer(TOKENS.alice),
      options: asBob,
    });
    expectResult(safe, ID, { status: 'passed', requests: 2 });
  });

  it("in an OpenAPI scan, names alice's own order instead of the description's example (an order that does not exist)", async () => {
    target = await startObjectsTarget({ checksOwner: false });
    const document = {
      openapi: '3.1.0',
      info: { title: 'orders', version: '1' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
      paths: {
        '/orders': { get: { responses: { '200': { description: 'orders' } } } },
        '/orders/{orderId}': {
          get: {
            parameters: [
              { name: 'orderId', in: 'path', required: true, schema: { type: 'string', example: 'ord_example00' } },
            ],
            responses: { '200': { description: 'order' } },
          },
        },
      },
    };
    const outcome = await scanDocument(document, target.origin, {
      checks: [ID],
      credentials: { bearer: TOKENS.alice },
      options: asBob,
      only: ['GET /orders/{orderId}'],
    });
    expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 7.1 }, requests: 2 });
    expect(resultOf(outcome, ID).attempts[0].request.url).to.equal(target.url(`/orders/${ORDER_ID}`));
  });
});
