import { expect } from 'chai';
import { query } from '../../demo/vulnerable-api/mini-sql.js';
import { resultOf, scanTarget } from '../support/scan.js';
import { startDemoTarget, type DemoTarget } from '../fixtures/targets/demo-api-target.js';
import { json, startTarget, type Target } from '../fixtures/targets/start-target.js';
import { expectResult } from './expect-result.js';

const ID = 'injection.sql';
const PRODUCTS = [
  { id: 1, name: 'Lamp', category: 'books', hidden: 0 },
  { id: 2, name: 'Chess', category: 'games', hidden: 0 },
];
const categoryOf = (url: string | undefined): string =>
  new URL(url ?? '/', 'http://x').searchParams.get('category') ?? '';
const concatenated = (category: string) =>
  query({ products: PRODUCTS }, `SELECT id, name FROM products WHERE hidden = 0 AND category = '${category}'`);

describe('injection.sql', () => {
  let demo: DemoTarget | undefined;
  let target: Target | undefined;
  afterEach(async () => {
    await demo?.close();
    await target?.close();
    demo = target = undefined;
  });

  it('fails with injection.sql_boolean_based (9.3) on the demo API, confirmed by a second pair, citing every answer', async () => {
    demo = await startDemoTarget();
    const outcome = await scanTarget(demo.url('/api/products?category=books'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'failed', issues: { 'injection.sql_boolean_based': 9.3 }, requests: 8 });
    const [finding] = resultOf(outcome, ID).findings;
    expect(finding.detail).to.match(
      /^query category: "books' AND '(\d+)'='\1" is answered like the baseline \(200, 1 record\) and "books' AND '\d+'='\d+" unlike it \(200, 0 records\), and again with \d+ \(200, 1 record \/ 200, 0 records\); also: query category: a quote appended brings a database error \(SQLite: /,
    );
    expect(
      finding.attemptIds,
      'baseline, both true answers, the second false one, the quote, the balanced and the tripled quote beside the false one',
    ).to.have.length(7);
  });

  it("passes on the demo API's secure twin (a bound parameter): the true payload is not answered like the baseline", async () => {
    demo = await startDemoTarget({ secure: true });
    const outcome = await scanTarget(demo.url('/api/products?category=books'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'passed', requests: 3 });
  });

  it('proves a blind injection whose errors are swallowed by the boolean differential alone', async () => {
    target = await startTarget((req, res) => {
      try {
        json(res, 200, concatenated(categoryOf(req.url)));
      } catch {
        json(res, 200, []);
      }
    });
    const outcome = await scanTarget(target.url('/products?category=books'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'failed', issues: { 'injection.sql_boolean_based': 9.3 }, requests: 6 });
  });

  it('fails with injection.sql_error_based (8.8) on a MySQL error text that the balanced quote does not bring', async () => {
    target = await startTarget((req, res) => {
      const category = categoryOf(req.url);
      const open = (category.match(/'/g) ?? []).length % 2 === 1;
      if (open)
        return json(res, 400, {
          error:
            "You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near ''' at line 1",
        });
      json(res, 200, category === 'books' ? [{ id: 1 }] : [{ id: 1 }, { id: 2 }]);
    });
    const outcome = await scanTarget(target.url('/products?category=books'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'failed', issues: { 'injection.sql_error_based': 8.8 } });
    expect(resultOf(outcome, ID).findings[0].detail).to.include('MySQL');
  });

  it('fails with injection.sql_quote_error (6.3) when only a quote turns 200 into 500, and names the backslash when that is what breaks it', async () => {
    target = await startTarget((req, res) => {
      const category = categoryOf(req.url);
      if (/\\$/.test(category.replace(/\\\\/g, ''))) return json(res, 500, { error: 'internal error' });
      json(res, 200, [{ id: 1 }]);
    });
    const outcome = await scanTarget(target.url('/products?category=books'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'failed', issues: { 'injection.sql_quote_error': 6.3 } });
    expect(resultOf(outcome, ID).findings[0].detail).to.include('a backslash appended brings 500');
  });

  it('passes an endpoint that answers 500 to every request (a broken endpoint is not an injection)', async () => {
    target = await startTarget((_req, res) => json(res, 500, { error: 'down' }));
    const outcome = await scanTarget(target.url('/products?category=books'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'passed', requests: 3 });
  });

  it('sends the time-based payloads only when asked, and proves a sleep that grows with what is asked and not for 0 s', async () => {
    target = await startTarget(async (req, res) => {
      const seconds = Number(/SLEEP\((\d+)\)/.exec(categoryOf(req.url))?.[1] ?? 0);
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      json(res, 200, [{ id: 1 }]);
    });
    const quiet = await scanTarget(target.url('/products?category=books'), { checks: [ID] });
    expectResult(quiet, ID, { status: 'passed', requests: 3 });
    const asked = await scanTarget(target.url('/products?category=books'), {
      checks: [ID],
      options: { sqlTimeBased: 1 },
    });
    expectResult(asked, ID, { status: 'failed', issues: { 'injection.sql_time_based': 9.3 }, requests: 6 });
  });

  it('passes an input whose answer is slow whenever a sleep is asked, but not longer for a longer sleep', async () => {
    // A slow path for odd-looking values (a WAF, a retry) waits the same whatever was asked: no proof of SQL.
    target = await startTarget(async (req, res) => {
      if (/SLEEP\(\d*[1-9]\d*\)/.test(categoryOf(req.url))) await new Promise((resolve) => setTimeout(resolve, 1100));
      json(res, 200, [{ id: 1 }]);
    });
    const outcome = await scanTarget(target.url('/products?category=books'), {
      checks: [ID],
      options: { sqlTimeBased: 1 },
    });
    expectResult(outcome, ID, { status: 'passed' });
  });

  it('never sends a PUT, a PATCH or a destructive operation', async () => {
    target = await startTarget((_req, res) => json(res, 200, {}));
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      const outcome = await scanTarget(target.url('/items?name=x'), {
        checks: [ID],
        method,
        body: '{"name":"x"}',
        headers: { 'Content-Type': 'application/json' },
      });
      expectResult(outcome, ID, { status: 'skipped', requests: 0 });
    }
    expect(target.requests()).to.equal(0);
  });
});
