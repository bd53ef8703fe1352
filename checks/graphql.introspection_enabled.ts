/**
 * graphql.introspection_enabled — the GraphQL endpoint answers introspection queries (Info: the whole schema is
 * readable by anyone holding the scan's credential).
 * Requests: 1) POST `{"query":"query{__schema{queryType{name}}}"}` as JSON; 2) only if 1 did not succeed, GET with the
 * same query in `?query=` (GraphQL over HTTP), with `Content-Type: application/json` so Apollo's CSRF guard answers.
 * Verdict: failed when a 200 answer carries `data.__schema.queryType`.
 * Differs from VulnAPI: the answer is parsed as JSON instead of searching the substring "queryType", so an error
 * message that quotes the query is not a finding.
 */
import { defineCheck, type ProbeResponse } from '../scanner/api.js';

const ISSUE = 'graphql.introspection_enabled';
const QUERY = 'query{__schema{queryType{name}}}';

function introspected(response: ProbeResponse): boolean {
  if (response.status !== 200) return false;
  try {
    const body = JSON.parse(response.body) as { data?: { __schema?: { queryType?: unknown } } };
    return typeof body.data?.__schema?.queryType === 'object' && body.data.__schema.queryType !== null;
  } catch {
    return false;
  }
}

export default defineCheck({
  id: 'graphql.introspection_enabled',
  name: 'GraphQL Introspection Enabled',
  issues: [
    {
      id: ISSUE,
      name: 'GraphQL Introspection enabled',
      url: 'https://www.cerberauth.com/docs/vulnapi/vulnerabilities/security-misconfiguration/graphql-introspection?utm_source=vulnapi-report',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:N/VI:N/VA:N/SC:N/SI:N/SA:N', score: 0 },
      classifications: { owasp: 'API8:2023 Security Misconfiguration' },
    },
  ],
  scanKinds: ['graphql'],
  oncePerScan: true,
  async run(ctx) {
    const json = { 'content-type': 'application/json' };
    const post = await ctx.http.send({ method: 'POST', headers: json, body: JSON.stringify({ query: QUERY }) });
    if (introspected(post))
      return ctx.report(ISSUE, { detail: 'POST introspection query answered with the schema', attempt: post });
    const url = new URL(ctx.operation.url);
    url.search = new URLSearchParams({ query: QUERY }).toString();
    const get = await ctx.http.send({ method: 'GET', url: url.href, headers: json, body: null });
    if (introspected(get))
      ctx.report(ISSUE, { detail: 'GET introspection query answered with the schema', attempt: get });
  },
});
