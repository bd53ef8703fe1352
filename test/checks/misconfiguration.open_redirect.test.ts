import { expect } from 'chai';
import { startDemoTarget, type DemoTarget } from '../fixtures/targets/demo-api-target.js';
import { json, startTarget, type Target } from '../fixtures/targets/start-target.js';
import { resultOf, scanTarget } from '../support/scan.js';
import { expectResult } from './expect-result.js';

const ID = 'misconfiguration.open_redirect';
const ISSUE = 'misconfiguration.open_redirect';
const param = (url: string | undefined, name: string): string =>
  new URL(url ?? '/', 'http://x').searchParams.get(name) ?? '';

describe('misconfiguration.open_redirect', () => {
  let demo: DemoTarget | undefined;
  let target: Target | undefined;
  afterEach(async () => {
    await demo?.close();
    await target?.close();
    demo = target = undefined;
  });

  it('fails with misconfiguration.open_redirect (5.1) when next= redirects to any host, confirmed with a second host', async () => {
    demo = await startDemoTarget();
    const outcome = await scanTarget(demo.url('/api/continue?next=/api/health'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 5.1 }, requests: 3 });
    expect(resultOf(outcome, ID).findings[0].detail).to.match(
      /^query next: an absolute URL to a foreign host is followed: 302 to https:\/\/gatehouse-\d+\.example\/ and https:\/\/gatehouse-\d+\.example\/ for two hosts; the operation as given stays on its origin$/,
    );
  });

  it('passes the demo’s secure twin (only paths of the API)', async () => {
    demo = await startDemoTarget({ secure: true });
    const outcome = await scanTarget(demo.url('/api/continue?next=/api/health'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'passed', requests: 3 });
  });

  it('finds a protocol-relative bypass of a check that only looks for a scheme', async () => {
    target = await startTarget((req, res) => {
      const next = param(req.url, 'return_url');
      res.writeHead(302, { location: /^https?:/i.test(next) ? '/' : next }).end();
    });
    const outcome = await scanTarget(target.url('/login/done?return_url=/home'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 5.1 }, requests: 4 });
    expect(resultOf(outcome, ID).findings[0].detail).to.match(/^query return_url: a protocol-relative URL/);
  });

  it('finds a JSON answer that names the foreign URL for the client to follow', async () => {
    target = await startTarget((_req, res, body) => {
      const { callback } = JSON.parse(body) as { callback: string };
      json(res, 200, { location: callback });
    });
    const outcome = await scanTarget(target.url('/sessions/finish'), {
      checks: [ID],
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ callback: '/dashboard' }),
    });
    expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 5.1 } });
    expect(resultOf(outcome, ID).findings[0].detail).to.match(/a JSON answer naming https:\/\/gatehouse-/);
  });

  it('is not applicable without a redirect-like input', async () => {
    target = await startTarget((_req, res) => json(res, 200, {}));
    const outcome = await scanTarget(target.url('/products?category=books'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'skipped', reason: /no redirect-like input/, requests: 0 });
  });
});
