import { expect } from 'chai';
import { scanTarget } from '../support/scan.js';
import { json, startTarget, type Target } from '../fixtures/targets/start-target.js';
import { expectResult } from './expect-result.js';

const ID = 'resource.rate_limit_absent';
const ISSUE = 'resource_consumption.rate_limit_absent';

/** Allows `limit` requests, then 429 with Retry-After; `headers` adds the draft RateLimit fields to every answer. */
const limitedTarget = (limit: number, headers: boolean) => {
  let used = 0;
  return startTarget((_req, res) => {
    used += 1;
    const fields: Record<string, string> = headers
      ? { 'RateLimit-Policy': `"default";q=${limit};w=60`, RateLimit: `"default";r=${Math.max(0, limit - used)};t=60` }
      : {};
    if (used > limit) return json(res, 429, { error: 'rate_limited' }, { ...fields, 'Retry-After': '60' });
    json(res, 200, { items: [] }, fields);
  });
};

describe('resource.rate_limit_absent', () => {
  let target: Target | undefined;
  afterEach(async () => target?.close());

  it('fails Low (2.3) after a full burst of 30 unlimited answers on an operation that is not about authentication', async () => {
    target = await startTarget((_req, res) => json(res, 200, { items: [] }));
    const outcome = await scanTarget(target.url('/items'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 2.3 }, requests: 30 });
    expect(target.requests(), 'requests the target received').to.equal(30);
  });

  it('fails Medium (5.3) on an authentication operation (a token endpoint)', async () => {
    target = await startTarget((_req, res) => json(res, 200, { ok: true }));
    const outcome = await scanTarget(target.url('/oauth/token'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 5.3 }, requests: 30 });
    expect(outcome.results[0].findings[0].cvss).to.equal(undefined);
  });

  it("counts the scan's other requests to the operation toward the burst, and sends at least 3 of its own", async () => {
    target = await startTarget((_req, res) => json(res, 200, { items: [] }));
    const outcome = await scanTarget(target.url('/items'), {
      checks: [ID, 'misconfiguration.http_headers', 'misconfiguration.cors'],
    });
    const others = outcome.results.filter((r) => r.checkId !== ID).reduce((n, r) => n + r.attempts.length, 0);
    expect(others).to.be.greaterThan(0);
    expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 2.3 }, requests: 30 - others });
  });

  it('bursts once per path and within the per-scan budget', async () => {
    target = await startTarget((_req, res) => json(res, 200, { items: [] }));
    const outcome = await scanTarget(target.url('/items'), { checks: [ID], options: { rateLimitBudget: 10 } });
    expectResult(outcome, ID, {
      status: 'skipped',
      reason: /budget of 10 requests \(--rate-limit-budget\) is spent/,
      requests: 0,
    });
  });

  it('honours the rateLimitBurst option', async () => {
    target = await startTarget((_req, res) => json(res, 200, { items: [] }));
    const outcome = await scanTarget(target.url('/items'), { checks: [ID], options: { rateLimitBurst: 5 } });
    expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 2.3 }, requests: 5 });
  });

  it('passes and stops at the first 429 of an API without rate-limit headers', async () => {
    target = await limitedTarget(10, false);
    const outcome = await scanTarget(target.url('/items'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'passed', requests: 11 });
  });

  it('passes after one request when the API announces its limit in RateLimit headers', async () => {
    target = await limitedTarget(600, true);
    const outcome = await scanTarget(target.url('/items'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'passed', requests: 1 });
  });

  it('is not applicable to writes: repeated requests run on read operations only', async () => {
    target = await startTarget((_req, res) => json(res, 201, {}));
    const outcome = await scanTarget(target.url('/items'), { checks: [ID], method: 'POST', body: '{}' });
    expectResult(outcome, ID, { status: 'skipped', reason: /runs on read operations only/, requests: 0 });
  });

  it('never bursts a GET that names a state-wiping verb', async () => {
    target = await startTarget((_req, res) => json(res, 200, { reset: true }));
    const outcome = await scanTarget(target.url('/reset-db'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'skipped', reason: /read operations only/, requests: 0 });
    expect(target.requests()).to.equal(0);
  });

  it('is skipped after one request when the operation is not served (404)', async () => {
    target = await startTarget((_req, res) => json(res, 404, {}));
    const outcome = await scanTarget(target.url('/items'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'skipped', reason: /nothing is being served/, requests: 1 });
  });
});
