/**
 * graphql.get_mutation — mutations run over GET (CSRF, OWASP API8:2023): a link or an image tag on any site makes a
 * signed-in browser change state. GraphQL over HTTP allows only queries over GET.
 *
 * Request (once per endpoint, with the scan's credential): GET `?query=mutation{__typename}` — a mutation that
 * changes nothing. Skipped when the schema the scan read has no mutation type.
 * Verdict: failed when it is answered with `data.__typename`; passed when refused (405, or an error).
 */
import { defineCheck } from '../scanner/api.js';
import { getUrl } from '../scanner/graphql/graphql-request.js';
import { dataOf, endpointOf, schemaOf } from './support/graphql-probe.js';

const ISSUE = 'graphql.get_mutation';

export default defineCheck({
  id: 'graphql.get_mutation',
  name: 'GraphQL Mutation over GET',
  issues: [
    {
      id: ISSUE,
      name: 'GraphQL runs mutations sent with GET (CSRF)',
      url: 'https://graphql.github.io/graphql-over-http/draft/#sec-GET',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:A/VC:N/VI:L/VA:N/SC:N/SI:N/SA:N', score: 5.1 },
      classifications: { owasp: 'API8:2023 Security Misconfiguration' },
    },
  ],
  scanKinds: ['graphql', 'openapi'],
  graphqlOperations: 'endpoint',
  async run(ctx) {
    const schema = schemaOf(ctx.operation);
    if (schema && !schema.getMutationType()) return ctx.skip('the schema has no mutation type');
    const response = await ctx.http.send({
      method: 'GET',
      url: getUrl(endpointOf(ctx.operation), { query: 'mutation{__typename}' }),
      headers: { 'content-type': null, accept: 'application/json' },
      body: null,
    });
    if (dataOf(response)?.__typename !== undefined)
      ctx.report(ISSUE, { detail: 'GET ?query=mutation{__typename} ran the mutation', attempt: response });
  },
});
