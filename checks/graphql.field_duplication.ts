/**
 * graphql.field_duplication — a document that repeats one scalar field 500 times is answered (OWASP API4:2023): the
 * server counts no fields, so a document's size is its only limit and parsing and validation work grows with it.
 *
 * Requests (once per endpoint, bounded): 1) `__typename` 50 times; only when answered, 2) 500 times. Cut off at 5 s; an
 * answer slower than 2 s stops the probe and is reported.
 * Verdict: failed when the 500-field document is answered (or slow); passed when the server refuses it.
 */
import { defineCheck } from '../scanner/api.js';
import { dataOf, sendDocument, slowDetail, SLOW_MS } from './support/graphql-probe.js';

const ISSUE = 'graphql.field_duplication';
const SIZES = [50, 500];

export default defineCheck({
  id: 'graphql.field_duplication',
  name: 'GraphQL Field Duplication',
  issues: [
    {
      id: ISSUE,
      name: 'GraphQL answers a field repeated hundreds of times',
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
    for (const size of SIZES) {
      const response = await sendDocument(ctx, `query { ${Array(size).fill('__typename').join(' ')} }`);
      const answered = dataOf(response)?.__typename !== undefined;
      if (response.durationMs > SLOW_MS && answered)
        return ctx.report(ISSUE, { detail: slowDetail(`__typename ${size} times`, response), attempt: response });
      if (!answered) return ctx.log.debug(`__typename ${size} times: refused (${response.status})`);
      if (size === SIZES[SIZES.length - 1])
        ctx.report(ISSUE, {
          detail: `a document selecting __typename ${size} times was answered (${response.durationMs} ms)`,
          attempt: response,
        });
    }
  },
});
