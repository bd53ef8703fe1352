import { scanTarget } from '../support/scan.js';
import { startTarget, json, type Target } from '../fixtures/targets/start-target.js';
import { expectResult } from './expect-result.js';

const ID = 'misconfiguration.http_trace';

describe('misconfiguration.http_trace', () => {
  let target: Target | undefined;
  afterEach(async () => target?.close());

  it('fails with security_misconfiguration.http_trace_method_enabled (0) when TRACE echoes the request', async () => {
    target = await startTarget((req, res) => {
      if (req.method !== 'TRACE') return json(res, 200, {});
      const head = [
        `${req.method} ${req.url} HTTP/1.1`,
        ...Object.entries(req.headers).map(([k, v]) => `${k}: ${String(v)}`),
      ].join('\r\n');
      res.writeHead(200, { 'content-type': 'message/http' }).end(`${head}\r\n\r\n`);
    });
    const outcome = await scanTarget(target.url('/'), { checks: [ID] });
    expectResult(outcome, ID, {
      status: 'failed',
      issues: { 'security_misconfiguration.http_trace_method_enabled': 0 },
      requests: 1,
    });
  });

  it('passes when TRACE is refused with 405', async () => {
    target = await startTarget((req, res) => json(res, req.method === 'TRACE' ? 405 : 200, {}));
    const outcome = await scanTarget(target.url('/'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'passed', requests: 1 });
  });

  it('passes on a catch-all that answers 200 to any method without echoing the request (VulnAPI flagged it)', async () => {
    target = await startTarget((_req, res) => json(res, 200, { ok: true }));
    const outcome = await scanTarget(target.url('/'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'passed', requests: 1 });
  });
});
