/**
 * graphql.circular_fragments — a document whose fragments spread each other in a cycle is accepted (OWASP API4:2023).
 * The GraphQL specification makes servers refuse it at validation ("Fragment spreads must not form cycles"); a server
 * that skips the rule relies on its executor to stop an endless expansion.
 *
 * Request (once per endpoint): `query { ...A } fragment A on Query { __typename ...B } fragment B on Query { ...A }`,
 * cut off at 5 s. Verdict: failed when it is answered with data (or after more than 2 s); passed when refused.
 */
import { defineCheck } from '../scanner/api.js';
import { dataOf, queryTypeName, sendDocument, slowDetail, SLOW_MS } from './support/graphql-probe.js';

const ISSUE = 'graphql.circular_fragments';

export default defineCheck({
  id: 'graphql.circular_fragments',
  name: 'GraphQL Circular Fragments',
  issues: [
    {
      id: ISSUE,
      name: 'GraphQL accepts fragments that spread each other in a cycle',
      url: 'https://spec.graphql.org/October2021/#sec-Fragment-spreads-must-not-form-cycles',
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
    const type = queryTypeName(ctx.operation);
    const response = await sendDocument(
      ctx,
      `query { ...GatehouseA } fragment GatehouseA on ${type} { __typename ...GatehouseB } fragment GatehouseB on ${type} { ...GatehouseA }`,
    );
    if (dataOf(response)?.__typename !== undefined || response.durationMs > SLOW_MS)
      ctx.report(ISSUE, {
        detail:
          response.durationMs > SLOW_MS
            ? slowDetail('two fragments spreading each other', response)
            : 'two fragments that spread each other were executed instead of refused at validation',
        attempt: response,
      });
  },
});
