/**
 * graphql.field_suggestions — errors suggest field names ("Did you mean …?"): with introspection off, a client still
 * recovers the schema name by name (what clairvoyance does; scanner/graphql/suggestions.ts does it too).
 *
 * Request (once per endpoint): a root query field with its last letter dropped (from the schema the scan read; `user`
 * misspelled when it read none), validated but never executed.
 * Verdict: failed when an error suggests a name; passed otherwise.
 */
import { defineCheck } from '../scanner/api.js';
import { parseAnswer } from '../scanner/graphql/graphql-request.js';
import { schemaOf, sendDocument } from './support/graphql-probe.js';

const ISSUE = 'graphql.field_suggestions';

export default defineCheck({
  id: 'graphql.field_suggestions',
  name: 'GraphQL Field Suggestions',
  issues: [
    {
      id: ISSUE,
      name: 'GraphQL errors suggest field names',
      url: 'https://owasp.org/API-Security/editions/2023/en/0xa8-security-misconfiguration/',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:L/UI:N/VC:L/VI:N/VA:N/SC:N/SI:N/SA:N', score: 5.3 },
      classifications: { owasp: 'API8:2023 Security Misconfiguration' },
    },
  ],
  scanKinds: ['graphql', 'openapi'],
  graphqlOperations: 'endpoint',
  async run(ctx) {
    const fields = Object.keys(schemaOf(ctx.operation)?.getQueryType()?.getFields() ?? {}).filter((f) => f.length > 3);
    const misspelled = (fields[0] ?? 'users').slice(0, -1);
    const response = await sendDocument(ctx, `query { ${misspelled} }`);
    const suggestion = parseAnswer(response.body)?.errors.find((e) => /Did you mean/i.test(e.message));
    if (suggestion)
      ctx.report(ISSUE, {
        detail: `"${misspelled}" is answered with "${suggestion.message.slice(0, 200)}"`,
        attempt: response,
      });
  },
});
