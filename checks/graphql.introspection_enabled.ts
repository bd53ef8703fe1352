/**
 * graphql.introspection_enabled — the GraphQL endpoint answers introspection queries: the whole schema is readable.
 * Info on a public API (VulnAPI's issue, scored 0); `graphql.introspection_enabled_private` (Medium) when the API
 * requires a credential — its schema maps every private operation — and the detail says whether it answers anonymous
 * clients too.
 * Requests: 1) POST `{"query":"query{__schema{queryType{name}}}"}` as JSON; 2) only if 1 did not succeed, GET with the
 * same query in `?query=` (GraphQL over HTTP), with `Content-Type: application/json` so Apollo's CSRF guard answers.
 * When answered and the scan has a credential: 3) a root query field of the schema without the credential (the API
 * requires one when it is refused) and 4) the introspection request again without the credential.
 * Verdict: failed when a 200 answer carries `data.__schema.queryType`.
 * Differs from VulnAPI: the answer is parsed as JSON instead of searching the substring "queryType", so an error
 * message that quotes the query is not a finding.
 */
import { getNamedType, isEnumType, isScalarType } from 'graphql';
import { defineCheck, type ProbeRequest, type ProbeResponse } from '../scanner/api.js';
import { answerStatus } from './support/graphql-answer.js';
import { schemaOf } from './support/graphql-probe.js';

const ISSUE = 'graphql.introspection_enabled';
const PRIVATE = 'graphql.introspection_enabled_private';
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

/** A document calling one root query field that needs no argument (to learn whether the API needs a credential). */
function someField(schema: ReturnType<typeof schemaOf>): { field: string; document: string } | undefined {
  const field = Object.values(schema?.getQueryType()?.getFields() ?? {}).find((f) => f.args.length === 0);
  if (!field) return undefined;
  const leaf = isScalarType(getNamedType(field.type)) || isEnumType(getNamedType(field.type));
  return { field: field.name, document: `query { ${field.name}${leaf ? '' : ' { __typename }'} }` };
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
    {
      id: PRIVATE,
      name: 'GraphQL Introspection enabled on an API that requires a credential',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:L/UI:N/VC:L/VI:N/VA:N/SC:N/SI:N/SA:N', score: 5.3 },
      classifications: { owasp: 'API8:2023 Security Misconfiguration' },
    },
  ],
  scanKinds: ['graphql', 'openapi'],
  graphqlOperations: 'endpoint',
  async run(ctx) {
    const json = { 'content-type': 'application/json' };
    const post: ProbeRequest = { method: 'POST', headers: json, body: JSON.stringify({ query: QUERY }) };
    const url = new URL(ctx.operation.graphql?.endpoint ?? ctx.operation.url);
    url.search = new URLSearchParams({ query: QUERY }).toString();
    const get: ProbeRequest = { method: 'GET', url: url.href, headers: json, body: null };
    let how = 'POST';
    let answer = await ctx.http.send(post);
    if (!introspected(answer)) {
      how = 'GET';
      answer = await ctx.http.send(get);
      if (!introspected(answer)) return;
    }
    const probe = ctx.operation.credential ? someField(schemaOf(ctx.operation)) : undefined;
    if (!probe)
      return ctx.report(ISSUE, { detail: `${how} introspection query answered with the schema`, attempt: answer });
    const anonymous = await ctx.http.send({
      ...post,
      body: JSON.stringify({ query: probe.document }),
      credential: null,
    });
    const status = answerStatus(anonymous, { graphql: { field: probe.field } });
    if (status !== 401 && status !== 403)
      return ctx.report(ISSUE, {
        detail: `${how} introspection query answered with the schema; query.${probe.field} answers without a credential (${status}): a public API`,
        attempt: answer,
        attempts: [anonymous],
      });
    const open = await ctx.http.send({ ...(how === 'POST' ? post : get), credential: null });
    ctx.report(PRIVATE, {
      detail: `${how} introspection query answered with the schema of an API that refuses query.${probe.field} without a credential (${status}); ${introspected(open) ? 'anonymous clients read it too' : 'only with a credential'}`,
      attempt: answer,
      attempts: [anonymous, open],
    });
  },
});
