/**
 * misconfiguration.http_cookies — cookies set without the attributes that protect them (RFC 6265 §4.1.2, RFC 6265bis
 * SameSite). Request: the operation's answer as given — none when another check already had it (a write or delete
 * is not sent again for this), else 1. Every `Set-Cookie` of the response is examined. Verdict: an issue
 * fails when at least one cookie has the problem, and the detail names the cookies. No cookie → skipped.
 * Fixes VulnAPI (docs/architecture.md §R.15 #3): VulnAPI overwrote each issue per cookie, so only the last cookie decided.
 * Also: `Max-Age` counts as an expiry like `Expires` (RFC 6265 §5.2.2: Max-Age wins over Expires), and a SameSite
 * value other than Strict/Lax/None counts as not set (browsers ignore it).
 */
import { defineCheck } from '../scanner/api.js';
import { onGraphqlEndpointOnly } from './support/graphql-answer.js';
import { parseSetCookie, type SetCookie } from './support/set-cookie.js';

const V0A = 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:A/VC:N/VI:N/VA:N/SC:N/SI:N/SA:N';
const V0P = 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:P/VC:N/VI:N/VA:N/SC:N/SI:N/SA:N';
const OWASP = 'API8:2023 Security Misconfiguration';
const CAPEC = 'CAPEC-31: Accessing/Intercepting/Modifying HTTP Cookies';
const COOKIES_DOC = 'https://developer.mozilla.org/en-US/docs/Web/HTTP/Cookies#security';
const SAME_SITE_DOC = 'https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers/Set-Cookie#samesitesamesite-value';

/** Issue id → the cookies that have the problem. */
const RULES: Record<string, (cookie: SetCookie) => boolean> = {
  'security_misconfiguration.http_cookies_not_http_only': (c) => !c.httpOnly,
  'security_misconfiguration.http_cookies_not_secure': (c) => !c.secure,
  'security_misconfiguration.http_cookies_same_site_none': (c) => c.sameSite === 'none',
  'security_misconfiguration.http_cookies_without_same_site': (c) =>
    !['strict', 'lax', 'none'].includes(c.sameSite ?? ''),
  'security_misconfiguration.http_cookies_without_expires': (c) => c.expires === undefined && c.maxAge === undefined,
};

export default defineCheck({
  id: 'misconfiguration.http_cookies',
  name: 'HTTP Cookies Misconfiguration',
  issues: [
    {
      id: 'security_misconfiguration.http_cookies_not_http_only',
      name: 'Cookies not HTTP-Only',
      url: COOKIES_DOC,
      cvss: { version: 4.0, vector: V0A, score: 0 },
      classifications: { owasp: OWASP, cwe: "CWE-1004: Sensitive Cookie Without 'HttpOnly' Flag", capec: CAPEC },
    },
    {
      id: 'security_misconfiguration.http_cookies_not_secure',
      name: 'Cookies not Secure',
      url: COOKIES_DOC,
      cvss: { version: 4.0, vector: V0P, score: 0 },
      classifications: {
        owasp: OWASP,
        cwe: "CWE-614: Sensitive Cookie in HTTPS Session Without 'Secure' Attribute",
        capec: CAPEC,
      },
    },
    {
      id: 'security_misconfiguration.http_cookies_same_site_none',
      name: 'Cookies SameSite set to None',
      url: SAME_SITE_DOC,
      cvss: { version: 4.0, vector: V0P, score: 0 },
      classifications: {
        owasp: OWASP,
        cwe: 'CWE-1275: Sensitive Cookie with Improper SameSite Attribute',
        capec: CAPEC,
      },
    },
    {
      id: 'security_misconfiguration.http_cookies_without_same_site',
      name: 'Cookies SameSite not set',
      url: SAME_SITE_DOC,
      cvss: { version: 4.0, vector: V0P, score: 0 },
      classifications: {
        owasp: OWASP,
        cwe: 'CWE-1275: Sensitive Cookie with Improper SameSite Attribute',
        capec: CAPEC,
      },
    },
    {
      id: 'security_misconfiguration.http_cookies_without_expires',
      name: 'Cookies Expires not set',
      url: COOKIES_DOC,
      cvss: { version: 4.0, vector: V0P, score: 0 },
      classifications: { owasp: OWASP, cwe: 'CWE-613: Insufficient Session Expiration' },
    },
  ],
  appliesTo: onGraphqlEndpointOnly,
  async run(ctx) {
    const response = await ctx.http.answerAsGiven();
    if (response.setCookies.length === 0) ctx.skip('the response sets no cookie');
    const cookies = response.setCookies.map(parseSetCookie);
    for (const [issueId, hasProblem] of Object.entries(RULES)) {
      const names = cookies.filter(hasProblem).map((c) => c.name);
      if (names.length > 0) ctx.report(issueId, { detail: `cookies: ${names.join(', ')}`, attempt: response });
    }
  },
});
