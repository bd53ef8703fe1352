/**
 * graphql.form_post — the endpoint runs operations posted as a form (`application/x-www-form-urlencoded`) or as
 * `text/plain`: both are "simple" requests a browser sends cross-site without a CORS preflight, so any page can make
 * a signed-in visitor's browser run mutations (CSRF, OWASP API8:2023).
 *
 * Requests (once per endpoint, with the scan's credential): 1) a form POST of `query=mutation{__typename}` (a mutation
 * that changes nothing; `query{__typename}` when the schema has no mutation type); 2) only when refused, the JSON body
 * sent as `text/plain`.
 * Verdict: failed when either is answered with `data.__typename`; passed when both are refused (415, 400, an error).
 */
import { defineCheck } from '../scanner/api.js';
import { FORM_HEADERS, formBody, jsonBody } from '../scanner/graphql/graphql-request.js';
import { dataOf, endpointOf, schemaOf } from './support/graphql-probe.js';

const ISSUE = 'graphql.form_post';

export default defineCheck({
  id: 'graphql.form_post',
  name: 'GraphQL Form-Encoded POST',
  issues: [
    {
      id: ISSUE,
      name: 'GraphQL runs operations posted without a CORS preflight (CSRF)',
      url: 'https://owasp.org/www-community/attacks/csrf',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:A/VC:N/VI:L/VA:N/SC:N/SI:N/SA:N', score: 5.1 },
      classifications: { owasp: 'API8:2023 Security Misconfiguration' },
    },
  ],
  scanKinds: ['graphql', 'openapi'],
  graphqlOperations: 'endpoint',
  async run(ctx) {
    const schema = schemaOf(ctx.operation);
    const query = schema && !schema.getMutationType() ? 'query{__typename}' : 'mutation{__typename}';
    const url = endpointOf(ctx.operation);
    const form = await ctx.http.send({ method: 'POST', url, headers: { ...FORM_HEADERS }, body: formBody({ query }) });
    if (dataOf(form)?.__typename !== undefined)
      return ctx.report(ISSUE, { detail: `a form-encoded POST of ${query} was run`, attempt: form });
    const text = await ctx.http.send({
      method: 'POST',
      url,
      headers: { 'content-type': 'text/plain', accept: 'application/json' },
      body: jsonBody({ query }),
    });
    if (dataOf(text)?.__typename !== undefined)
      ctx.report(ISSUE, { detail: `a text/plain POST of ${query} was run`, attempt: text, attempts: [form] });
  },
});
