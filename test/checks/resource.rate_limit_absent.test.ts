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
    const fields: Record<string, string> = headers ? { 'RateLimit-Policy': `"default";q=${limit};w=60`, RateLimit: `"default";r=${Math.max(0, limit - used)};t=60` } : {};
    if (used > limit) return json(res, 429, { error: 'rate_limited' }, { ...fields, 'Retry-After': '60' });
    json(res, 200, { items: [] }, fields);
  });
};

describe('resource.rate_limit_absent', () => {
  let target: Target | undefined;
  afterEach(async () => target?.close());

  it('fails with resource_consumption.rate_limit_absent (5.3) after a full burst of 50 unlimited answers', async () => {
    target = await startTarget((_req, res) => json(res, 200, { items: [] }));
    const outcome = await scanTarget(target.url('/items'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 5.3 }, requests: 50 });
    expect(target.requests(), 'requests the target received').to.equal(50);
  });

  it('honours the rateLimitBurst option', async () => {
    target = await startTarget((_req, res) => json(res, 200, { items: [] }));
    const outcome = await scanTarget(target.url('/items'), { checks: [ID], options: { rateLimitBurst: 5 } });
    expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 5.3 }, requests: 5 });
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

  it('is not applicable to writes', async () => {
    target = await startTarget((_req, res) => json(res, 201, {}));
    const outcome = await scanTarget(target.url('/items'), { checks: [ID], method: 'POST', body: '{}' });
    expectResult(outcome, ID, { status: 'skipped', reason: /only GET and HEAD/, requests: 0 });
  });

  it('is skipped after one request when the operation is not served (404)', async () => {
    target = await startTarget((_req, res) => json(res, 404, {}));
    const outcome = await scanTarget(target.url('/items'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'skipped', reason: /nothing is being served/, requests: 1 });
  });
});
