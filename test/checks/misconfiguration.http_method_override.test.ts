import { expect } from 'chai';
import type { IncomingMessage } from 'node:http';
import { resultOf, scanTarget } from '../support/scan.js';
import { startTarget, json, type Target } from '../fixtures/targets/start-target.js';
import { bearer, expectResult } from './expect-result.js';

const ID = 'misconfiguration.http_method_override';
const ALLOW = 'security_misconfiguration.http_method_allow_override';
const BYPASS = 'security_misconfiguration.http_method_override_authentication_bypass';
const TOKEN = 'opaque-token-123456';

/** GET-only resource; `override` honours X-HTTP-Method-Override; `guardOverridden` re-checks auth after the override. */
function overrideTarget(options: { override: boolean; guardOverridden: boolean }): Promise<Target> {
  return startTarget((req: IncomingMessage, res) => {
    const authorized = req.headers.authorization === `Bearer ${TOKEN}`;
    // The auth guard protects GET; a router that applies the override after the guard lets HEAD+override skip it.
    if (req.method === 'GET' && !authorized) return json(res, 401, { error: 'unauthorized' });
    const override = req.headers['x-http-method-override'];
    const method = options.override && typeof override === 'string' ? override.toUpperCase() : req.method;
    if (method !== 'GET') return json(res, 405, { error: 'method not allowed' }, { allow: 'GET' });
    if (options.guardOverridden && !authorized) return json(res, 401, { error: 'unauthorized' });
    json(res, 200, { ok: true });
  });
}

describe('misconfiguration.http_method_override', () => {
  let target: Target | undefined;
  afterEach(async () => target?.close());

  it('reports the override (0) and the authentication bypass (8.8) when HEAD + X-HTTP-Method-Override: GET skips the auth guard', async () => {
    target = await overrideTarget({ override: true, guardOverridden: false });
    const outcome = await scanTarget(target.url('/items'), { checks: [ID], headers: bearer(TOKEN) });
    // baseline GET, HEAD → 405, HEAD + override header, GET without credential, HEAD + override without credential
    expectResult(outcome, ID, { status: 'failed', issues: { [ALLOW]: 0, [BYPASS]: 8.8 }, requests: 5 });
  });

  it('reports only the override when the overridden request is still authenticated', async () => {
    target = await overrideTarget({ override: true, guardOverridden: true });
    const outcome = await scanTarget(target.url('/items'), { checks: [ID], headers: bearer(TOKEN) });
    expectResult(outcome, ID, { status: 'failed', issues: { [ALLOW]: 0 }, requests: 5 });
  });

  it('passes after every header and query override is ignored', async () => {
    target = await overrideTarget({ override: false, guardOverridden: true });
    const outcome = await scanTarget(target.url('/items'), { checks: [ID], headers: bearer(TOKEN) });
    // baseline, HEAD → 405, then 3 headers and 4 query parameters
    expectResult(outcome, ID, { status: 'passed', requests: 9 });
  });

  it('never lets its override headers leak into the TRACE check that runs on the same operation', async () => {
    const seen: (string | undefined)[] = [];
    target = await startTarget((req, res) => {
      if (req.method === 'TRACE') seen.push(req.headers['x-http-method-override'] as string | undefined);
      const method = (req.headers['x-http-method-override'] as string | undefined) ?? req.method;
      if (method === 'GET') return json(res, 200, { ok: true });
      json(res, 405, {});
    });
    const outcome = await scanTarget(target.url('/items'), {
      checks: [ID, 'misconfiguration.http_trace'],
      concurrency: 1,
    });
    expect(resultOf(outcome, ID).status).to.equal('failed');
    expectResult(outcome, 'misconfiguration.http_trace', { status: 'passed', requests: 1 });
    expect(seen).to.deep.equal([undefined]);
  });

  it('is skipped when the operation answers 405 to its own method', async () => {
    target = await startTarget((_req, res) => json(res, 405, {}));
    const outcome = await scanTarget(target.url('/items'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'skipped', reason: /405/, requests: 1 });
  });
});
