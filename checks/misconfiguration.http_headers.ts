/**
 * misconfiguration.http_headers — security headers missing from the response. Request: the operation's answer as
 * given — none when another check already had it (a write or delete is not sent again for this), else 1.
 * Scores (docs/architecture.md §2.6): every issue is one finding per origin listing the operations (a header is the server's); the
 * framing issues are Medium (5.1) on HTML answers and Low (2.1) on JSON and other data.
 * Verdicts: X-Content-Type-Options must be `nosniff`; ACAO `*` is reported (Info); CSP must be present; CSP
 * `frame-ancestors` must be set to something narrower than `*` / a bare scheme / `https://*`, parsed by the CSP3
 * grammar (checks/support/csp-framing.ts: invalid source expressions such as a quoted URL restrict nothing, so a
 * directive made only of them sets no policy); X-Frame-Options DENY/SAMEORIGIN is
 * required only when frame-ancestors is not set; HSTS is required on https only.
 * Fixes VulnAPI: `cors_missing` is declared for report compatibility but never reported — no
 * Access-Control-Allow-Origin is the secure same-origin default (docs/architecture.md §R.15 #9); `frame-ancestors 'self'` or a list
 * of origins passes (VulnAPI required the substring "none"); HSTS is not asked of plain http, where browsers ignore
 * it (RFC 6797 §8.1); X-Frame-Options is obsoleted by frame-ancestors (CSP Level 2), so it is not asked twice;
 * X-Content-Type-Options must be `nosniff`, the only value defined (Fetch §X-Content-Type-Options).
 */
import { defineCheck } from '../scanner/api.js';
import { onGraphqlEndpointOnly } from './support/graphql-answer.js';
import { framing as framingOf } from './support/csp-framing.js';

const V0A = 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:A/VC:N/VI:N/VA:N/SC:N/SI:N/SA:N';
const V51 = 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:A/VC:N/VI:L/VA:N/SC:N/SI:N/SA:N';
/** Framing a response that is not HTML needs a precondition (AT:P: a page that renders it): Low, 2.1. */
const LOW_FRAMING = {
  version: 4.0 as const,
  vector: 'CVSS:4.0/AV:N/AC:L/AT:P/PR:N/UI:A/VC:N/VI:L/VA:N/SC:N/SI:N/SA:N',
  score: 2.1,
};
const OWASP = 'API8:2023 Security Misconfiguration';
const CWE_16 = 'CWE-16: Configuration';
const CWE_942 = 'CWE-942: Permissive Cross-domain Policy with Untrusted Domains';
const CWE_1021 = 'CWE-1021: Improper Restriction of Rendered UI Layers or Frames';
const MDN = 'https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers';

const CONTENT_OPTIONS = 'security_misconfiguration.http_headers_content_options_missing';
const CORS_MISSING = 'security_misconfiguration.http_headers_cors_missing';
const CORS_WILDCARD = 'security_misconfiguration.http_headers_cors_wildcard';
const FRAME_ANCESTORS = 'security_misconfiguration.http_headers_csp_frame_ancestors_missing';
const FRAME_OPTIONS = 'security_misconfiguration.http_headers_frame_options_missing';
const CSP_MISSING = 'security_misconfiguration.http_headers_csp_missing';
const HSTS_MISSING = 'security_misconfiguration.http_headers_hsts_missing';

export default defineCheck({
  id: 'misconfiguration.http_headers',
  name: 'HTTP Headers Misconfiguration',
  issues: [
    {
      id: CONTENT_OPTIONS,
      name: 'X-Content-Type-Options Header is missing',
      url: `${MDN}/X-Content-Type-Options`,
      cvss: { version: 4.0, vector: V0A, score: 0 },
      classifications: { owasp: OWASP, cwe: CWE_16 },
      perOrigin: true,
    },
    {
      id: CORS_MISSING,
      name: 'CORS Headers are missing',
      url: `${MDN}/Access-Control-Allow-Origin`,
      cvss: { version: 4.0, vector: V0A, score: 5.1 },
      classifications: { owasp: OWASP, cwe: CWE_942 },
      perOrigin: true,
    },
    {
      id: CORS_WILDCARD,
      name: 'CORS Allow-Origin Header is set to wildcard (*)',
      url: `${MDN}/Access-Control-Allow-Origin`,
      cvss: { version: 4.0, vector: V0A, score: 0 },
      classifications: { owasp: OWASP, cwe: CWE_942 },
      perOrigin: true,
    },
    {
      id: FRAME_ANCESTORS,
      name: 'CSP frame-ancestors policy is not set',
      url: `${MDN}/Content-Security-Policy/frame-ancestors`,
      cvss: { version: 4.0, vector: V51, score: 5.1 },
      classifications: { owasp: OWASP, cwe: CWE_1021 },
      perOrigin: true,
    },
    {
      id: FRAME_OPTIONS,
      name: 'X-Frame-Options Header is missing',
      url: `${MDN}/X-Frame-Options`,
      cvss: { version: 4.0, vector: V51, score: 5.1 },
      classifications: { owasp: OWASP, cwe: CWE_1021 },
      perOrigin: true,
    },
    {
      id: CSP_MISSING,
      name: 'CSP Header is not set',
      url: `${MDN}/Content-Security-Policy`,
      cvss: { version: 4.0, vector: V0A, score: 0 },
      classifications: { owasp: OWASP, cwe: CWE_1021 },
      perOrigin: true,
    },
    {
      id: HSTS_MISSING,
      name: 'HSTS Header is missing',
      url: `${MDN}/Strict-Transport-Security`,
      cvss: { version: 4.0, vector: V0A, score: 0 },
      classifications: { owasp: OWASP, cwe: CWE_16 },
      perOrigin: true,
    },
  ],
  appliesTo: onGraphqlEndpointOnly,
  async run(ctx) {
    const response = await ctx.http.answerAsGiven();
    const h = response.headers;
    // Framing is clickjacking only where a browser renders the answer: Medium on HTML, Low on JSON and other data.
    const html = /text\/html|application\/xhtml/i.test(h['content-type'] ?? '');
    const found = (issueId: string, detail: string): void => ctx.report(issueId, { detail, attempt: response });
    const framingFound = (issueId: string, detail: string): void =>
      ctx.report(issueId, {
        detail: html ? detail : `${detail} (not HTML: Low)`,
        attempt: response,
        ...(html ? {} : { cvss: LOW_FRAMING }),
      });

    if (h['x-content-type-options']?.trim().toLowerCase() !== 'nosniff') {
      found(
        CONTENT_OPTIONS,
        `X-Content-Type-Options is ${h['x-content-type-options'] === undefined ? 'absent' : `"${h['x-content-type-options']}"`}`,
      );
    }
    if (h['access-control-allow-origin']?.trim() === '*') found(CORS_WILDCARD, 'Access-Control-Allow-Origin: *');
    const csp = h['content-security-policy'];
    if (csp === undefined) found(CSP_MISSING, 'no Content-Security-Policy header');
    const frames = framingOf(csp);
    const framing = frames.verdict === 'restricted';
    if (!framing) framingFound(FRAME_ANCESTORS, frames.detail);
    const xfo = h['x-frame-options']?.trim().toUpperCase();
    if (!framing && xfo !== 'DENY' && xfo !== 'SAMEORIGIN')
      framingFound(FRAME_OPTIONS, 'neither X-Frame-Options DENY/SAMEORIGIN nor CSP frame-ancestors');
    if (new URL(ctx.operation.url).protocol === 'https:' && h['strict-transport-security'] === undefined) {
      found(HSTS_MISSING, 'no Strict-Transport-Security header on https');
    }
  },
});
