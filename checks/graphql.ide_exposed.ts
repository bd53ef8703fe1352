/**
 * graphql.ide_exposed — a GraphQL IDE (GraphiQL, GraphQL Playground, Altair, Apollo Sandbox, Voyager) is served next to
 * the endpoint: anyone can explore and call the API from a browser page the API's origin hosts.
 *
 * Requests (once per endpoint, no credential): GET of the endpoint asking for HTML, then GET of the usual IDE paths on
 * its origin (/graphiql, /playground, /altair, /graphql/playground, /explorer, /voyager), stopping at the first IDE.
 * Verdict: failed when a 200 HTML answer is an IDE page (its title or mount point names it); passed otherwise.
 */
import { defineCheck } from '../scanner/api.js';
import { endpointOf } from './support/graphql-probe.js';

const ISSUE = 'graphql.ide_exposed';
const IDE = /graphiql|graphql[ -]playground|altair|apollo sandbox|graphql voyager|embeddable-sandbox/i;
const PATHS = ['/graphiql', '/playground', '/altair', '/graphql/playground', '/explorer', '/voyager'];

export default defineCheck({
  id: 'graphql.ide_exposed',
  name: 'GraphQL IDE Exposed',
  issues: [
    {
      id: ISSUE,
      name: 'A GraphQL IDE is served',
      url: 'https://owasp.org/API-Security/editions/2023/en/0xa9-improper-inventory-management/',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:P/PR:N/UI:A/VC:N/VI:L/VA:N/SC:N/SI:N/SA:N', score: 2.1 },
      classifications: { owasp: 'API9:2023 Improper Inventory Management', cwe: 'CWE-489: Active Debug Code' },
    },
  ],
  scanKinds: ['graphql', 'openapi'],
  graphqlOperations: 'endpoint',
  async run(ctx) {
    const endpoint = new URL(endpointOf(ctx.operation));
    const urls = [endpoint.href, ...PATHS.map((path) => new URL(path, endpoint.origin).href)];
    for (const url of urls) {
      const response = await ctx.http.send({
        method: 'GET',
        url,
        headers: { accept: 'text/html', 'content-type': null },
        body: null,
        credential: null,
      });
      const html = (response.headers['content-type'] ?? '').includes('html');
      if (response.status === 200 && html && IDE.test(response.body.slice(0, 20_000))) {
        return ctx.report(ISSUE, {
          detail: `${IDE.exec(response.body)![0]} is served at ${new URL(url).pathname} without a credential`,
          attempt: response,
        });
      }
    }
  },
});
