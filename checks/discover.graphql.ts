/**
 * discover.graphql — a GraphQL endpoint or IDE is reachable at a well-known path (Info).
 * Requests: 1 control + one GET per path below with `?query={__typename}` (GraphQL over HTTP, GET), without
 * credential. Verdict: failed when any path is a hit: a 200 whose body is a GraphQL response (`data.__typename` or
 * an `errors` array) or a GraphiQL / Playground / Altair page. Publishes the facts `urls`, `endpoints` (GraphQL
 * answers: scan them with `scanner scan graphql`) and `ides` (IDE pages).
 * Differs from VulnAPI (docs/architecture.md §R.13 #17): our own list, and the body must answer like GraphQL, not only the status.
 */
import { defineCheck, type ProbeResponse } from '../scanner/api.js';
import { isHtml, jsonObject, probePaths, reportHits, type PathProbe } from './support/probe-paths.js';

const ISSUE = 'discover.discoverable_graphql';

function plausible(r: ProbeResponse): boolean {
  const json = jsonObject(r.body);
  if (json) {
    const data = json.data as Record<string, unknown> | null | undefined;
    return (typeof data === 'object' && data !== null && '__typename' in data) || Array.isArray(json.errors);
  }
  return isHtml(r) && /graphiql|graphql-playground|altair|apollo sandbox/i.test(r.body);
}

const PATHS = [
  'graphql',
  'graphiql',
  'graphql/console',
  'graphql-explorer',
  'playground',
  'altair',
  'explorer',
  'graph',
  'gql',
  'query',
  'api/graphql',
  'api/gql',
  'v1/graphql',
  'v2/graphql',
  'api/v1/graphql',
  'api/v2/graphql',
  'graphql.php',
  'graphiql.php',
  'index.php/graphql',
  'hasura/v1/graphql',
  '___graphql',
];
const PROBES: PathProbe[] = PATHS.map((path) => ({ path, query: 'query=%7B__typename%7D', plausible }));

export default defineCheck({
  id: 'discover.graphql',
  name: 'Discoverable GraphQL Path',
  issues: [
    {
      id: ISSUE,
      name: 'Discoverable GraphQL Endpoint',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:N/VI:N/VA:N/SC:N/SI:N/SA:N', score: 0 },
      classifications: { owasp: 'API9:2023 Improper Inventory Management' },
    },
  ],
  oncePerScan: true,
  scanKinds: ['discover'],
  async run(ctx) {
    const hits = await probePaths(ctx, PROBES);
    // Endpoints first: the well-known table shows the cited URL, and the endpoint is what `scan graphql` takes.
    const endpoints = hits.filter((h) => !isHtml(h.response));
    const ides = hits.filter((h) => isHtml(h.response));
    reportHits(ctx, ISSUE, [...endpoints, ...ides]);
    ctx.setFact(
      'endpoints',
      endpoints.map((h) => h.url),
    );
    ctx.setFact(
      'ides',
      ides.map((h) => h.url),
    );
  },
});
