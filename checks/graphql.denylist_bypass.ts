/**
 * graphql.denylist_bypass — a field the server refuses by matching the query's text (a deny list of fields or
 * operation names) answers when the same call is spelled differently: under an alias, after a `__typename`, with
 * line breaks and commas between tokens, or under another operation name. A deny list is not authorization.
 *
 * Runs per field, on read operations (queries; mutations that only read), when the field as the scan sends it is
 * refused for a reason other than authentication or an invalid document (403 or a server error: see
 * checks/support/graphql-answer.ts). Requests: the call as given, then each respelling in turn, stopping at the first
 * answered (at most 5). Verdict: failed when a respelling gets the field's data, naming the respelling.
 */
import { defineCheck, operationClass, type Operation } from '../scanner/api.js';
import { parseAnswer } from '../scanner/graphql/graphql-request.js';
import { answerStatus } from './support/graphql-answer.js';
import { postRequest } from './support/graphql-probe.js';

const ISSUE = 'graphql.denylist_bypass';
const ALIAS = 'gatehouseAlias';

/** Respellings of the operation's document that call the same field. */
function respellings(operation: Operation): { how: string; query: string; operationName?: string; key: string }[] {
  const { document, field, operationName } = operation.graphql!;
  const call = new RegExp(`\\{ ${field!}\\b`);
  return [
    { how: 'the field under an alias', query: document.replace(call, `{ ${ALIAS}: ${field!}`), key: ALIAS },
    { how: 'a __typename before the field', query: document.replace(call, `{ __typename ${field!}`), key: field! },
    {
      how: 'line breaks and commas between tokens',
      query: document.replace(call, `{\n,${field!}\n`).replace(/ \{ /g, '\n{\n'),
      key: field!,
    },
    {
      how: 'another operation name',
      query: operationName ? document.replace(operationName, 'GatehouseRenamed') : document,
      ...(operationName ? { operationName: 'GatehouseRenamed' } : {}),
      key: field!,
    },
  ];
}

export default defineCheck({
  id: 'graphql.denylist_bypass',
  name: 'GraphQL Deny List Bypass',
  issues: [
    {
      id: ISSUE,
      name: 'A field refused by a GraphQL deny list answers when spelled differently',
      url: 'https://owasp.org/API-Security/editions/2023/en/0xa5-broken-function-level-authorization/',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:L/UI:N/VC:H/VI:N/VA:N/SC:N/SI:N/SA:N', score: 7.1 },
      classifications: {
        owasp: 'API5:2023 Broken Function Level Authorization',
        cwe: 'CWE-285: Improper Authorization',
      },
    },
  ],
  scanKinds: ['graphql', 'openapi'],
  graphqlOperations: 'fields',
  appliesTo: (operation) => (operationClass(operation) === 'read' ? true : 'a write: respelled calls would act again'),
  async run(ctx) {
    const operation = ctx.operation;
    const plain = await ctx.http.send();
    const status = answerStatus(plain, operation);
    if (status < 400 || status === 401 || status === 400 || status === 404 || status === 429)
      return ctx.skip(`the field is not refused by a deny list (${status})`);
    const { variables } = operation.graphql!;
    for (const spelling of respellings(operation)) {
      const response = await ctx.http.send(
        postRequest(operation, {
          query: spelling.query,
          variables,
          operationName: spelling.operationName ?? operation.graphql!.operationName,
        }),
      );
      const value = parseAnswer(response.body)?.data?.[spelling.key];
      if (response.status === 200 && value !== undefined && value !== null)
        return ctx.report(ISSUE, {
          detail: `${operation.id} is refused as sent (${status}) but answered with ${spelling.how}`,
          attempt: response,
          attempts: [plain],
        });
    }
  },
});
