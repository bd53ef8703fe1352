/**
 * misconfiguration.verbose_errors — error answers that show the server's insides (OWASP API8:2023 Security
 * Misconfiguration): stack traces, framework debug pages, and database error text (support/error-page-signatures.ts,
 * support/sql-error-signatures.ts) — file paths, library versions, query fragments an attacker builds on.
 *
 * Requests: none — a passive check: it reads every answer (any status) the other checks of the scan received on this
 * operation (ctx.observed(), requests with its method and path: support/own-exchanges.ts), the injection checks'
 * malformed input included, and cites the first that shows each.
 * Verdict: `security_misconfiguration.debug_page_exposed` (6.9) for a framework debug page;
 * `security_misconfiguration.stack_trace_exposed` (6.3) for a stack trace; `security_misconfiguration.database_error_exposed`
 * (6.3) for database error text. Passed when no answer shows any; skipped when the scan received no answer here.
 */
import { defineCheck, type ObservedExchange } from '../scanner/api.js';
import { ownExchanges } from './support/own-exchanges.js';
import { DEBUG_PAGES, firstSignature, STACK_TRACES } from './support/error-page-signatures.js';
import { sqlErrorIn } from './support/sql-error-signatures.js';

const DEBUG = 'security_misconfiguration.debug_page_exposed';
const STACK = 'security_misconfiguration.stack_trace_exposed';
const DATABASE = 'security_misconfiguration.database_error_exposed';
const owasp = 'API8:2023 Security Misconfiguration';
const cwe209 = 'CWE-209: Generation of Error Message Containing Sensitive Information';
const url = 'https://owasp.org/API-Security/editions/2023/en/0xa8-security-misconfiguration/';
const LOW = 'CVSS:4.0/AV:N/AC:L/AT:P/PR:N/UI:N/VC:L/VI:N/VA:N/SC:N/SI:N/SA:N';

const DETECTORS: { issue: string; find: (body: string) => string | undefined }[] = [
  { issue: DEBUG, find: (body) => firstSignature(DEBUG_PAGES, body) },
  { issue: STACK, find: (body) => firstSignature(STACK_TRACES, body) },
  {
    issue: DATABASE,
    find: (body) => {
      const hit = sqlErrorIn(body);
      return hit ? `${hit.dbms} error "${hit.excerpt}"` : undefined;
    },
  },
];

const sentBy = (exchange: ObservedExchange): string =>
  `${exchange.request.method} ${new URL(exchange.request.url).pathname} sent by ${exchange.checkId}`;

export default defineCheck({
  id: 'misconfiguration.verbose_errors',
  name: 'Verbose Error Messages',
  issues: [
    {
      id: DEBUG,
      name: 'Framework debug error page exposed',
      url,
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:L/VI:L/VA:N/SC:N/SI:N/SA:N', score: 6.9 },
      classifications: { owasp, cwe: 'CWE-489: Active Debug Code' },
    },
    {
      id: STACK,
      name: 'Stack trace in a response',
      url,
      cvss: { version: 4.0, vector: LOW, score: 6.3 },
      classifications: { owasp, cwe: cwe209 },
    },
    {
      id: DATABASE,
      name: 'Database error message in a response',
      url,
      cvss: { version: 4.0, vector: LOW, score: 6.3 },
      classifications: { owasp, cwe: cwe209 },
    },
  ],
  passive: true,
  async run(ctx) {
    const exchanges = ownExchanges(ctx);
    if (exchanges.length === 0) return ctx.skip('the scan received no answer on this operation to inspect');
    for (const { issue, find } of DETECTORS) {
      for (const exchange of exchanges) {
        const what = find(exchange.response.body);
        if (!what) continue;
        ctx.report(issue, {
          detail: `${what} in a ${exchange.response.status} answer to ${sentBy(exchange)}`,
          attempt: exchange.response,
        });
        break;
      }
    }
  },
});
