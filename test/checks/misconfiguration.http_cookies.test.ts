import { expect } from 'chai';
import { resultOf, scanTarget } from '../support/scan.js';
import { startTarget, type Target } from '../fixtures/targets/start-target.js';
import { expectResult } from './expect-result.js';

const ID = 'misconfiguration.http_cookies';
const cookieTarget = (cookies: string[]): Promise<Target> =>
  startTarget((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': cookies }).end('{}');
  });

describe('misconfiguration.http_cookies', () => {
  let target: Target | undefined;
  afterEach(async () => target?.close());

  it('reports every problem of every cookie, not only the last one (VulnAPI judged the last cookie only)', async () => {
    target = await cookieTarget([
      'session=abc; Path=/', // no HttpOnly, Secure, SameSite or expiry
      'prefs=dark; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=3600', // fine: Max-Age is an expiry
    ]);
    const outcome = await scanTarget(target.url('/'), { checks: [ID] });
    expectResult(outcome, ID, {
      status: 'failed',
      requests: 1,
      issues: {
        'security_misconfiguration.http_cookies_not_http_only': 0,
        'security_misconfiguration.http_cookies_not_secure': 0,
        'security_misconfiguration.http_cookies_without_same_site': 0,
        'security_misconfiguration.http_cookies_without_expires': 0,
      },
    });
    for (const finding of resultOf(outcome, ID).findings) expect(finding.detail).to.equal('cookies: session');
  });

  it('reports SameSite=None', async () => {
    target = await cookieTarget(['id=1; Secure; HttpOnly; SameSite=None; Expires=Wed, 21 Oct 2037 07:28:00 GMT']);
    const outcome = await scanTarget(target.url('/'), { checks: [ID] });
    expectResult(outcome, ID, {
      status: 'failed',
      requests: 1,
      issues: { 'security_misconfiguration.http_cookies_same_site_none': 0 },
    });
  });

  it('passes with one request when every cookie is HttpOnly, Secure, SameSite and expiring', async () => {
    target = await cookieTarget([
      'a=1; Secure; HttpOnly; SameSite=Lax; Max-Age=60',
      'b=2; secure; httponly; samesite=strict; expires=Wed, 21 Oct 2037 07:28:00 GMT',
    ]);
    const outcome = await scanTarget(target.url('/'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'passed', requests: 1 });
  });

  it('is skipped when the response sets no cookie', async () => {
    target = await cookieTarget([]);
    const outcome = await scanTarget(target.url('/'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'skipped', reason: /no cookie/, requests: 1 });
  });
});
