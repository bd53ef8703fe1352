import { scanTarget } from '../support/scan.js';
import { json, startTarget, type Target } from '../fixtures/targets/start-target.js';
import { expectResult } from './expect-result.js';

const ID = 'misconfiguration.cors';
const REFLECTED = 'security_misconfiguration.cors_origin_reflected';
const NULL_ORIGIN = 'security_misconfiguration.cors_null_origin_allowed';

/** A CORS middleware that echoes whatever Origin it is sent (the classic `origin: true, credentials: true` mistake). */
const reflectsOrigin = (allowNull: boolean) =>
  startTarget((req, res) => {
    const origin = req.headers.origin;
    const allowed = origin !== undefined && (origin !== 'null' || allowNull);
    json(
      res,
      200,
      { ok: true },
      allowed
        ? { 'access-control-allow-origin': origin, 'access-control-allow-credentials': 'true', vary: 'Origin' }
        : {},
    );
  });

describe('misconfiguration.cors', () => {
  let target: Target | undefined;
  afterEach(async () => target?.close());

  it('fails with both issues (7.1) when any Origin, null included, is echoed with credentials', async () => {
    target = await reflectsOrigin(true);
    const outcome = await scanTarget(target.url('/me'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'failed', issues: { [REFLECTED]: 7.1, [NULL_ORIGIN]: 7.1 }, requests: 2 });
  });

  it('fails with cors_origin_reflected only when the null Origin is refused', async () => {
    target = await reflectsOrigin(false);
    const outcome = await scanTarget(target.url('/me'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'failed', issues: { [REFLECTED]: 7.1 }, requests: 2 });
  });

  it('passes when the Origin is echoed without Access-Control-Allow-Credentials (no credentialed reads)', async () => {
    target = await startTarget((req, res) =>
      json(res, 200, {}, { 'access-control-allow-origin': req.headers.origin ?? '' }),
    );
    const outcome = await scanTarget(target.url('/me'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'passed', requests: 2 });
  });

  it('passes with an allowlist that answers only its own origin', async () => {
    target = await startTarget((req, res) => {
      const trusted = req.headers.origin === 'https://app.example.com';
      json(
        res,
        200,
        {},
        trusted
          ? { 'access-control-allow-origin': 'https://app.example.com', 'access-control-allow-credentials': 'true' }
          : {},
      );
    });
    const outcome = await scanTarget(target.url('/me'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'passed', requests: 2 });
  });

  it('passes with a wildcard, which browsers never combine with credentials', async () => {
    target = await startTarget((_req, res) =>
      json(res, 200, {}, { 'access-control-allow-origin': '*', 'access-control-allow-credentials': 'true' }),
    );
    const outcome = await scanTarget(target.url('/me'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'passed', requests: 2 });
  });
});
