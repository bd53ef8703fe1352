/**
 * resource.rate_limit_absent — the operation answers a burst of requests without any sign of rate limiting
 * (OWASP API4:2023 Unrestricted Resource Consumption): no 429 Too Many Requests (RFC 6585 §4) and no rate-limit header
 * (`RateLimit` / `RateLimit-Policy` of draft-ietf-httpapi-ratelimit-headers, `X-RateLimit-*`, `RateLimit-Limit`).
 *
 * Runs last on its operation, on read operations only (docs/architecture.md §2.6: a burst repeats the request), once per URL path;
 * in GraphQL scans on the endpoint and on each login-like field (a login mutation reads: scanner/operation-class.ts),
 * where a "too many requests" error in a 200 answer is a limit too.
 * Requests: the scan's own traffic to the path counts toward the burst of `--rate-limit-burst` requests (default 30,
 * 2–1000): a limit already seen there (429 or a rate-limit header) passes with no request; else the check tops up
 * with its own requests (at least 3, one after another under the scan's per-host rate) inside a per-scan budget of
 * `--rate-limit-budget` requests (default 150), stopping at the first limited answer.
 * Verdict: failed when the whole burst showed no limit and the check's own answers were all 2xx; Medium (5.3) on an
 * authentication operation (login, token, register, password reset), Low (2.3) elsewhere. Passed at the first limited
 * answer, or when the burst ends on a non-2xx answer. Skipped when its first answer is not 2xx (nothing is being served),
 * when the path had its burst already, or when the budget is spent.
 */
import { defineCheck, type Operation, type ProbeResponse } from '../scanner/api.js';
import { wordsOf } from '../scanner/operation-class.js';
import { answerStatus } from './support/graphql-answer.js';

const ISSUE = 'resource_consumption.rate_limit_absent';
const LIMIT_HEADERS = [
  'ratelimit',
  'ratelimit-policy',
  'ratelimit-limit',
  'ratelimit-remaining',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-rate-limit-limit',
  'x-rate-limit-remaining',
];
const MIN_OWN = 3;
/** Off authentication operations an absent limit needs a precondition (AT:P) to hurt: Low. */
const LOW = {
  version: 4.0 as const,
  vector: 'CVSS:4.0/AV:N/AC:L/AT:P/PR:L/UI:N/VC:N/VI:N/VA:L/SC:N/SI:N/SA:N',
  score: 2.3,
};

const limited = (response: ProbeResponse, operation?: Operation): boolean =>
  answerStatus(response, operation) === 429 ||
  response.status === 429 ||
  LIMIT_HEADERS.some((name) => response.headers[name] !== undefined);
const served = (response: ProbeResponse): boolean => response.status >= 200 && response.status < 300;

/** Login, token, registration and password-reset operations: where guessing and abuse need a limit most. */
export function isAuthenticationOperation(operation: Pick<Operation, 'path' | 'operationId' | 'summary'>): boolean {
  const text = [operation.path, operation.operationId, operation.summary]
    .filter((n): n is string => typeof n === 'string')
    .map((n) => wordsOf(n).join(' '))
    .join(' ');
  return /\b(?:login|logon|signin|sign in|log in|signup|sign up|register|registration|token|tokens|oauth|authenticate|password|passwd|forgot|otp|mfa)\b/.test(
    text,
  );
}

export default defineCheck({
  id: 'resource.rate_limit_absent',
  name: 'Rate Limit Absent',
  issues: [
    {
      id: ISSUE,
      name: 'No rate limit on a burst of requests',
      url: 'https://owasp.org/API-Security/editions/2023/en/0xa4-unrestricted-resource-consumption/',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:L/UI:N/VC:N/VI:N/VA:L/SC:N/SI:N/SA:N', score: 5.3 },
      classifications: {
        owasp: 'API4:2023 Unrestricted Resource Consumption',
        cwe: 'CWE-770: Allocation of Resources Without Limits or Throttling',
      },
    },
  ],
  options: [
    {
      name: 'rateLimitBurst',
      type: 'integer',
      flag: '--rate-limit-burst',
      doc: "requests in the burst (the scan's own traffic to the path counts)",
      default: 30,
      min: 2,
      max: 1000,
    },
    {
      name: 'rateLimitBudget',
      type: 'integer',
      flag: '--rate-limit-budget',
      doc: 'requests all bursts of one scan may send together',
      default: 150,
      min: 2,
      max: 100000,
    },
  ],
  repeatsRequests: true,
  runsLast: true,
  appliesTo: (operation) => {
    // GraphQL: one path serves every field; the endpoint is bursted, and each login-like field on its own.
    if (operation.graphql)
      return !operation.graphql.field || isAuthenticationOperation(operation)
        ? true
        : 'a GraphQL field: bursts run on the endpoint and on login-like fields only';
    return ['GET', 'HEAD'].includes(operation.method.toUpperCase())
      ? true
      : `${operation.method} is not bursted: only GET and HEAD are safe to repeat`;
  },
  async run(ctx) {
    const path = ctx.operation.graphql?.field ? ctx.operation.id : new URL(ctx.operation.url).pathname;
    // Claimed before any await: operations run concurrently, and one burst per path is enough.
    if (ctx.scanState.has(`path ${path}`)) return ctx.skip(`${path} had its burst already in this scan`);
    ctx.scanState.set(`path ${path}`, true);
    const all = ctx.traffic();
    // A GraphQL field's burst counts only its own requests: the scan's others to the endpoint asked other fields.
    const seen = ctx.operation.graphql?.field ? { ...all, sent: 0 } : all;
    if (seen.statuses.includes(429) || seen.headerNames.some((name) => LIMIT_HEADERS.includes(name))) {
      return ctx.log.debug(`rate limited already in the scan's ${seen.sent} request(s) to ${path}`);
    }
    const burst = ctx.options.rateLimitBurst;
    const own = Math.min(burst, Math.max(MIN_OWN, burst - seen.sent));
    const spent = (ctx.scanState.get('spent') as number | undefined) ?? 0;
    if (spent + own > ctx.options.rateLimitBudget)
      return ctx.skip(`the scan's burst budget of ${ctx.options.rateLimitBudget} requests (rateLimitBudget) is spent`);
    ctx.scanState.set('spent', spent + own);
    let last: ProbeResponse | undefined;
    for (let sent = 0; sent < own; sent += 1) {
      last = await ctx.http.send();
      if (limited(last, ctx.operation))
        return ctx.log.debug(`rate limited after ${sent + 1} request(s) (${last.status})`);
      if (!served(last)) {
        if (sent === 0) return ctx.skip(`the operation answers ${last.status}: nothing is being served to exhaust`);
        return ctx.log.debug(`burst ended on ${last.status} after ${sent + 1} request(s)`);
      }
    }
    const others = burst - own > 0 ? Math.min(seen.sent, burst - own) : 0;
    const authentication = isAuthenticationOperation(ctx.operation);
    ctx.report(ISSUE, {
      detail: `${own + others} requests to ${path} (${own} in a row by this check${others > 0 ? `, ${others} by the scan's other checks` : ''}) were answered without 429 or a rate-limit header; last ${last?.status}${authentication ? '' : ' (not an authentication operation: Low)'}`,
      attempt: last,
      ...(authentication ? {} : { cvss: LOW }),
    });
  },
});
