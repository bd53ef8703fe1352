/**
 * graphql.introspection_bypass — introspection is blocked, but a known bypass gets the schema anyway: the block
 * matches the query's text or its transport, not what runs (scanner/graphql/introspection-variants.ts: a field before
 * `__schema`, a comma after it, an alias, GET, a form or an `application/graphql` POST).
 *
 * Runs only when graphql.introspection_enabled passed (the plain query is refused). Requests: each bypass of
 * `query{__schema{queryType{name}}}` in turn, stopping at the first answered.
 * Verdict: failed when a bypass is answered with `__schema.queryType`, naming the bypass; passed otherwise.
 */
import { defineCheck } from '../scanner/api.js';
import { BYPASSES, schemaIn } from '../scanner/graphql/introspection-variants.js';
import { endpointOf } from './support/graphql-probe.js';

const ISSUE = 'graphql.introspection_bypass';
const QUERY = 'query{__schema{queryType{name}}}';

export default defineCheck({
  id: 'graphql.introspection_bypass',
  name: 'GraphQL Introspection Block Bypass',
  issues: [
    {
      id: ISSUE,
      name: 'GraphQL introspection block can be bypassed',
      url: 'https://owasp.org/API-Security/editions/2023/en/0xa8-security-misconfiguration/',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:L/UI:N/VC:L/VI:N/VA:N/SC:N/SI:N/SA:N', score: 5.3 },
      classifications: { owasp: 'API8:2023 Security Misconfiguration' },
    },
  ],
  dependsOn: ['graphql.introspection_enabled'],
  scanKinds: ['graphql', 'openapi'],
  graphqlOperations: 'endpoint',
  async run(ctx) {
    for (const bypass of BYPASSES) {
      const response = await ctx.http.send(bypass.request(endpointOf(ctx.operation), QUERY));
      if (!schemaIn(response.body)) continue;
      return ctx.report(ISSUE, {
        detail: `introspection is refused as a plain JSON POST, yet answered with ${bypass.how} (${bypass.name})`,
        attempt: response,
      });
    }
  },
});
