/**
 * bopla.excessive_data_exposure — answers that carry more than the client should see (OWASP API3:2023 Broken Object
 * Property Level Authorization): passwords in clear or hashed, other records' secrets, API keys and tokens, payment
 * card numbers, national identifiers (support/sensitive-values.ts), or more records than the description promises
 * (a list of every user where the schema describes one object, or more items than `maxItems`).
 *
 * Requests: none — a passive check: it reads the 2xx JSON answers every other check of the scan received on this
 * operation (ctx.observed(), requests with its method and path: support/own-exchanges.ts) and cites the one that
 * shows it; values are never copied into the finding's detail.
 * Verdict: `broken_object_property_level_authorization.sensitive_data_exposure` (7.1) for any sensitive value;
 * `broken_object_property_level_authorization.undocumented_records` (5.3) for a JSON list of 2 or more records where
 * the promised schema for that status is one object (or a list of at most `maxItems`). Passed when no answer shows
 * either; skipped when the scan received no 2xx JSON answer on the operation.
 */
import { defineCheck, type ObservedExchange } from '../scanner/api.js';
import { ownExchanges } from './support/own-exchanges.js';
import { promisedRecords, promisedSchema } from './support/promised-schema.js';
import { sensitiveValues } from './support/sensitive-values.js';

const SENSITIVE = 'broken_object_property_level_authorization.sensitive_data_exposure';
const RECORDS = 'broken_object_property_level_authorization.undocumented_records';
const owasp = 'API3:2023 Broken Object Property Level Authorization';
const url = 'https://owasp.org/API-Security/editions/2023/en/0xa3-broken-object-property-level-authorization/';

function parsed(exchange: ObservedExchange): unknown {
  const { response } = exchange;
  if (response.status < 200 || response.status >= 300) return undefined;
  try {
    return JSON.parse(response.body) as unknown;
  } catch {
    return undefined;
  }
}

const sentBy = (exchange: ObservedExchange): string =>
  `${exchange.request.method} ${new URL(exchange.request.url).pathname} sent by ${exchange.checkId}`;

export default defineCheck({
  id: 'bopla.excessive_data_exposure',
  name: 'Excessive Data Exposure',
  issues: [
    {
      id: SENSITIVE,
      name: 'Response exposes passwords, secrets or personal identifiers',
      url,
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:L/UI:N/VC:H/VI:N/VA:N/SC:N/SI:N/SA:N', score: 7.1 },
      classifications: { owasp, cwe: 'CWE-213: Exposure of Sensitive Information Due to Incompatible Policies' },
    },
    {
      id: RECORDS,
      name: 'Response lists more records than the description promises',
      url,
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:L/UI:N/VC:L/VI:N/VA:N/SC:N/SI:N/SA:N', score: 5.3 },
      classifications: { owasp, cwe: 'CWE-213: Exposure of Sensitive Information Due to Incompatible Policies' },
    },
  ],
  passive: true,
  async run(ctx) {
    const answers = ownExchanges(ctx)
      .map((exchange) => ({ exchange, json: parsed(exchange) }))
      .filter((a) => a.json !== undefined);
    if (answers.length === 0) return ctx.skip('the scan received no 2xx JSON answer on this operation to inspect');
    const sensitive = answers.map((a) => ({ ...a, hits: sensitiveValues(a.json) })).find((a) => a.hits.length > 0);
    if (sensitive) {
      const kinds = [...new Set(sensitive.hits.map((h) => h.kind))].join(', ');
      const where = sensitive.hits
        .slice(0, 6)
        .map((h) => `${h.kind} at ${h.path}`)
        .join('; ');
      const more = sensitive.hits.length > 6 ? `; ${sensitive.hits.length - 6} more` : '';
      ctx.report(SENSITIVE, {
        detail: `${kinds} in the answer to ${sentBy(sensitive.exchange)}: ${where}${more}`,
        attempt: sensitive.exchange.response,
      });
    }
    for (const { exchange, json } of answers) {
      const schema = promisedSchema(ctx.operation, exchange.response.status);
      const allowed = schema ? promisedRecords(schema) : undefined;
      if (allowed === undefined || !Array.isArray(json) || json.length < 2 || json.length <= allowed) continue;
      const promise = allowed === 1 ? 'one object' : `at most ${allowed} items`;
      ctx.report(RECORDS, {
        detail: `${json.length} records where the description promises ${promise} (${exchange.response.status}, ${sentBy(exchange)})`,
        attempt: exchange.response,
      });
      break;
    }
  },
});
