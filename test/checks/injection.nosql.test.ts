import { expect } from 'chai';
import { matches } from '../../demo/vulnerable-api/mongo-filter.js';
import { resultOf, scanTarget } from '../support/scan.js';
import { startDemoTarget, type DemoTarget } from '../fixtures/targets/demo-api-target.js';
import { json, startTarget, type Target } from '../fixtures/targets/start-target.js';
import { expectResult } from './expect-result.js';

const ID = 'injection.nosql';
const JSON_HEADERS = { 'Content-Type': 'application/json' };
const login = {
  method: 'POST',
  headers: JSON_HEADERS,
  body: JSON.stringify({ username: 'carol', password: 'not-her-password' }),
};
const ORDERS = [
  { id: 'o1', status: 'paid' },
  { id: 'o2', status: 'open' },
  { id: 'o3', status: 'open' },
];

/** `status[$ne]=x` → `{ status: { $ne: 'x' } }`, the way qs-style parsers build nested objects from brackets. */
function bracketFilter(url: string | undefined): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  for (const [key, value] of new URL(url ?? '/', 'http://x').searchParams) {
    const nested = /^(\w+)\[(.+)\]$/.exec(key);
    filter[nested ? nested[1] : key] = nested ? { [nested[2]]: value } : value;
  }
  return filter;
}

describe('injection.nosql', () => {
  let demo: DemoTarget | undefined;
  let target: Target | undefined;
  afterEach(async () => {
    await demo?.close();
    await target?.close();
    demo = target = undefined;
  });

  it('fails with injection.nosql_authentication_bypass (9.3) when the demo login accepts {"$ne": null} for the password', async () => {
    demo = await startDemoTarget();
    const outcome = await scanTarget(demo.url('/api/login'), { checks: [ID], ...login });
    expectResult(outcome, ID, {
      status: 'failed',
      issues: { 'injection.nosql_authentication_bypass': 9.3 },
      requests: 4,
    });
    const result = resultOf(outcome, ID);
    expect(result.findings[0].detail).to.equal(
      'JSON body (username, password) as {"$ne": null} answered 200, and as {"$ne": "gatehouse-none"} 200; baseline 404, control {"xne": …} 404',
    );
    const cited = result.attempts.find((a) => a.id === result.findings[0].attemptId)!;
    expect(cited.request.body).to.equal('{"username":{"$ne":null},"password":{"$ne":null}}');
  });

  it("passes on the secure twin's login, which refuses anything but strings", async () => {
    demo = await startDemoTarget({ secure: true });
    const outcome = await scanTarget(demo.url('/api/login'), { checks: [ID], ...login });
    expectResult(outcome, ID, { status: 'passed', requests: 3 });
  });

  it('fails with injection.nosql_operator_injection (7.1) when status[$ne]= widens a filter', async () => {
    target = await startTarget((req, res) =>
      json(
        res,
        200,
        ORDERS.filter((o) => matches(o, bracketFilter(req.url))),
      ),
    );
    const outcome = await scanTarget(target.url('/orders?status=paid'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'failed', issues: { 'injection.nosql_operator_injection': 7.1 }, requests: 4 });
  });

  it('passes when brackets are ignored (the operator and the control get the same answer)', async () => {
    target = await startTarget((req, res) => {
      const status = new URL(req.url ?? '/', 'http://x').searchParams.get('status');
      json(
        res,
        200,
        ORDERS.filter((o) => status === null || o.status === status),
      );
    });
    const outcome = await scanTarget(target.url('/orders?status=paid'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'passed', requests: 5 });
  });

  it('passes an API that refuses keys starting with $ (a 400 is validation, not a query that ran)', async () => {
    target = await startTarget((req, res) => {
      if (req.url?.includes('%24') || req.url?.includes('$'))
        return json(res, 400, { error: 'keys may not start with $' });
      json(res, 422, { error: 'status: a string' });
    });
    const outcome = await scanTarget(target.url('/orders?status=paid'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'passed', requests: 3 });
  });

  it('passes a create that stores and echoes whatever it gets (an echoed operator is not an injection)', async () => {
    target = await startTarget((_req, res, body) => json(res, 201, { id: 'n1', ...(JSON.parse(body) as object) }));
    const outcome = await scanTarget(target.url('/notes'), {
      checks: [ID],
      method: 'POST',
      headers: JSON_HEADERS,
      body: '{"title":"x"}',
    });
    expectResult(outcome, ID, { status: 'passed', requests: 5 });
  });
});
