/**
 * resource.rate_limit_absent — the operation answers a burst of requests without any sign of rate limiting
 * (OWASP API4:2023 Unrestricted Resource Consumption): no 429 Too Many Requests (RFC 6585 §4) and no rate-limit header
 * (`RateLimit` / `RateLimit-Policy` of draft-ietf-httpapi-ratelimit-headers, `X-RateLimit-*`, `RateLimit-Limit`).
 *
 * Requests: a bounded burst of `--rate-limit-burst` requests (default 50, 2–1000), the operation as given, one after
 * another under the scan's per-host rate; it stops at the first answer that is 429 or carries a rate-limit header, so
 * a limited API costs one request. Only GET and HEAD operations: a burst of writes would create or change data.
 * Verdict: failed when every answer of the full burst is 2xx with no 429 and no rate-limit header; passed at the
 * first limited answer, or when the burst ends on a non-2xx answer (the operation stopped serving). Skipped when the
 * first answer is not 2xx (nothing is being served to exhaust).
 */
import { defineCheck, type ProbeResponse } from '../scanner/api.js';

const ISSUE = 'resource_consumption.rate_limit_absent';
const LIMIT_HEADERS = ['ratelimit', 'ratelimit-policy', 'ratelimit-limit', 'ratelimit-remaining', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-rate-limit-limit', 'x-rate-limit-remaining'];

const limited = (response: ProbeResponse): boolean => response.status === 429 || LIMIT_HEADERS.some((name) => response.headers[name] !== undefined);
const served = (response: ProbeResponse): boolean => response.status >= 200 && response.status < 300;

export default defineCheck({
  id: 'resource.rate_limit_absent',
  name: 'Rate Limit Absent',
  issues: [
    {
      id: ISSUE,
      name: 'No rate limit on a burst of requests',
      url: 'https://owasp.org/API-Security/editions/2023/en/0xa4-unrestricted-resource-consumption/',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:L/UI:N/VC:N/VI:N/VA:L/SC:N/SI:N/SA:N', score: 5.3 },
      classifications: { owasp: 'API4:2023 Unrestricted Resource Consumption', cwe: 'CWE-770: Allocation of Resources Without Limits or Throttling' },
    },
  ],
  maxCvss: 5.3,
  options: [{ name: 'rateLimitBurst', type: 'integer', flag: '--rate-limit-burst', doc: 'requests in the burst', default: 50, min: 2, max: 1000 }],
  scanKinds: ['curl', 'openapi'],
  appliesTo: (operation) => (['GET', 'HEAD'].includes(operation.method.toUpperCase()) ? true : `${operation.method} is not bursted: only GET and HEAD are safe to repeat`),
  async run(ctx) {
    const burst = ctx.options.rateLimitBurst;
    let last: ProbeResponse | undefined;
    for (let sent = 0; sent < burst; sent += 1) {
      last = await ctx.http.send();
      if (limited(last)) return ctx.log.debug(`rate limited after ${sent + 1} request(s) (${last.status})`);
      if (!served(last)) {
        if (sent === 0) return ctx.skip(`the operation answers ${last.status}: nothing is being served to exhaust`);
        return ctx.log.debug(`burst ended on ${last.status} after ${sent + 1} request(s)`);
      }
    }
    ctx.report(ISSUE, { detail: `${burst} requests in a row were all answered ${last?.status} without 429 or a rate-limit header`, attempt: last });
  },
});
