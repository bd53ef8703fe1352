import { expect } from 'chai';
import { resultOf, scanTarget } from '../support/scan.js';
import { startTarget, type Target } from '../fixtures/targets/start-target.js';
import { expectResult } from './expect-result.js';

const ID = 'misconfiguration.http_headers';
const headerTarget = (headers: Record<string, string>, contentType = 'application/json'): Promise<Target> =>
  startTarget((_req, res) => {
    res
      .writeHead(200, { 'content-type': contentType, ...headers })
      .end(contentType.includes('html') ? '<!doctype html><p>hi</p>' : '{}');
  });

describe('misconfiguration.http_headers', () => {
  let target: Target | undefined;
  afterEach(async () => target?.close());

  it('reports missing CSP, frame-ancestors, X-Frame-Options and nosniff, and a wildcard CORS origin; framing is Low on JSON', async () => {
    target = await headerTarget({ 'access-control-allow-origin': '*', 'x-content-type-options': 'yes' });
    const outcome = await scanTarget(target.url('/'), { checks: [ID] });
    expectResult(outcome, ID, {
      status: 'failed',
      requests: 1,
      issues: {
        'security_misconfiguration.http_headers_content_options_missing': 0,
        'security_misconfiguration.http_headers_cors_wildcard': 0,
        'security_misconfiguration.http_headers_csp_missing': 0,
        'security_misconfiguration.http_headers_csp_frame_ancestors_missing': 2.1,
        'security_misconfiguration.http_headers_frame_options_missing': 2.1,
      },
    });
  });

  it("reports frame-ancestors * and the missing X-Frame-Options (Medium on HTML), yet accepts frame-ancestors 'self' alone (VulnAPI required none)", async () => {
    target = await headerTarget(
      { 'content-security-policy': "default-src 'none'; frame-ancestors *", 'x-content-type-options': 'nosniff' },
      'text/html; charset=utf-8',
    );
    let outcome = await scanTarget(target.url('/'), { checks: [ID] });
    expectResult(outcome, ID, {
      status: 'failed',
      requests: 1,
      issues: {
        'security_misconfiguration.http_headers_csp_frame_ancestors_missing': 5.1,
        'security_misconfiguration.http_headers_frame_options_missing': 5.1,
      },
    });
    await target.close();
    target = await headerTarget({
      'content-security-policy': "default-src 'none'; frame-ancestors 'self'",
      'x-content-type-options': 'nosniff',
    });
    outcome = await scanTarget(target.url('/'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'passed', requests: 1 });
  });

  it('passes with one request on a hardened plain-http API without CORS headers (no ACAO is the secure default; HSTS is for https)', async () => {
    target = await headerTarget({
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
    });
    const outcome = await scanTarget(target.url('/'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'passed', requests: 1 });
  });

  it("reports frame-ancestors whose only source is a quoted URL ('http://example.com' is no CSP3 source expression), saying why", async () => {
    target = await headerTarget(
      { 'content-security-policy': "frame-ancestors 'http://example.com'", 'x-content-type-options': 'nosniff' },
      'text/html',
    );
    const outcome = await scanTarget(target.url('/'), { checks: [ID] });
    expectResult(outcome, ID, {
      status: 'failed',
      issues: {
        'security_misconfiguration.http_headers_csp_frame_ancestors_missing': 5.1,
        'security_misconfiguration.http_headers_frame_options_missing': 5.1,
      },
      requests: 1,
    });
    const finding = resultOf(outcome, ID).findings.find((f) => f.issueId.endsWith('csp_frame_ancestors_missing'))!;
    expect(finding.detail).to.match(/no valid source expression \('http:\/\/example\.com'/);
  });

  it('passes its safe twin, the same origin written as a host-source (frame-ancestors http://example.com)', async () => {
    target = await headerTarget({
      'content-security-policy': 'frame-ancestors http://example.com',
      'x-content-type-options': 'nosniff',
    });
    const outcome = await scanTarget(target.url('/'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'passed', requests: 1 });
  });
});
