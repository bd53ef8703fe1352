import { scanTarget } from '../support/scan.js';
import { startRawTarget } from '../fixtures/targets/raw-target.js';
import type { Target } from '../fixtures/targets/start-target.js';
import { expectResult } from './expect-result.js';

const ID = 'misconfiguration.http_track';

describe('misconfiguration.http_track', () => {
  let target: Target | undefined;
  afterEach(async () => target?.close());

  it('fails with security_misconfiguration.http_track_method_enabled (0) when TRACK echoes the request (IIS-style)', async () => {
    target = await startRawTarget((method, head) =>
      method === 'TRACK'
        ? { status: 200, headers: { 'content-type': 'message/http' }, body: head }
        : { status: 200, body: '{}' },
    );
    const outcome = await scanTarget(target.url('/'), { checks: [ID] });
    expectResult(outcome, ID, {
      status: 'failed',
      issues: { 'security_misconfiguration.http_track_method_enabled': 0 },
      requests: 1,
    });
  });

  it('passes when TRACK is refused with 501', async () => {
    target = await startRawTarget((method) => (method === 'TRACK' ? { status: 501 } : { status: 200, body: '{}' }));
    const outcome = await scanTarget(target.url('/'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'passed', requests: 1 });
  });
});
