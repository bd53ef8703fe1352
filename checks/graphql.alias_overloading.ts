/**
 * graphql.alias_overloading — one document may repeat a field under 100 aliases (OWASP API4:2023): each alias runs
 * the resolver again, so a single request multiplies work, and a login mutation aliased a hundred times guesses a
 * hundred passwords past a per-request limit.
 *
 * Requests (once per endpoint, bounded): 1) 10 aliases of a cheap root field (no arguments, a scalar; else
 * `__typename`); only when all are answered, 2) 100 aliases. Cut off at 5 s; an answer slower than 2 s stops the probe
 * and is reported. The same field is never sent with more aliases once a sign showed.
 * Verdict: failed when 100 aliases are answered (or the answer is slow); passed when the server refuses the aliases.
 */
import { defineCheck } from '../scanner/api.js';
import { cheapField, dataOf, sendDocument, slowDetail, SLOW_MS } from './support/graphql-probe.js';

const ISSUE = 'graphql.alias_overloading';
const SIZES = [10, 100];

export default defineCheck({
  id: 'graphql.alias_overloading',
  name: 'GraphQL Alias Overloading',
  issues: [
    {
      id: ISSUE,
      name: 'GraphQL answers a field repeated under 100 aliases',
      url: 'https://owasp.org/API-Security/editions/2023/en/0xa4-unrestricted-resource-consumption/',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:L/UI:N/VC:N/VI:N/VA:L/SC:N/SI:N/SA:N', score: 5.3 },
      classifications: {
        owasp: 'API4:2023 Unrestricted Resource Consumption',
        cwe: 'CWE-770: Allocation of Resources Without Limits or Throttling',
      },
    },
  ],
  scanKinds: ['graphql', 'openapi'],
  graphqlOperations: 'endpoint',
  async run(ctx) {
    const field = cheapField(ctx.operation);
    for (const size of SIZES) {
      const aliases = Array.from({ length: size }, (_, i) => `a${i}: ${field}`).join(' ');
      const response = await sendDocument(ctx, `query { ${aliases} }`);
      const data = dataOf(response);
      const answered = data ? Object.keys(data).filter((k) => /^a\d+$/.test(k) && data[k] !== null).length : 0;
      if (response.durationMs > SLOW_MS && answered > 0)
        return ctx.report(ISSUE, { detail: slowDetail(`${size} aliases of ${field}`, response), attempt: response });
      if (answered < size)
        return ctx.log.debug(`${size} aliases of ${field}: ${answered} answered (${response.status})`);
      if (size === SIZES[SIZES.length - 1])
        ctx.report(ISSUE, {
          detail: `${size} aliases of query.${field} in one document were all answered (${response.durationMs} ms)`,
          attempt: response,
        });
    }
  },
});
