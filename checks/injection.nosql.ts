/**
 * injection.nosql — NoSQL (MongoDB-style) operator injection: a JSON body string replaced by a query operator
 * (`{"$ne": null}`, then `{"$gt": ""}`) or a query parameter sent as `name[$ne]=…`, proved against the baseline and
 * against a control that has the same shape but no operator (`{"xne": null}`, `name[xne]=…`). Runs on read operations
 * and POST (logins, searches, creates); never on PUT/PATCH or destructive operations, like injection.sql.
 *
 * Requests: 1 baseline (the operation as given); then for the JSON body (every string property at once) and for the
 * query string (every parameter at once): the `$ne` payload, and only when it is answered unlike the baseline, its
 * control, and when that differs too the operator again with another argument (`{"$ne": "gatehouse-none"}`,
 * `{"$gt": " "}`) to confirm; the `$gt` pair the same way when `$ne` proved nothing. At most 11, typically 3.
 * Verdict: failed when an operator payload is answered 2xx, unlike the baseline and unlike its control:
 * `injection.nosql_authentication_bypass` (9.3) when the operation signs in (support/sign-in-operation.ts) and the
 * operator answer is 2xx where baseline and control are not — the operator replaced the password;
 * `injection.nosql_operator_injection` (7.1) otherwise. Passed otherwise; skipped without a string input.
 */
import {
  defineCheck,
  operationInputs,
  payloadRefusal,
  withInputs,
  type Operation,
  type OperationInput,
  type ProbeRequest,
  type ProbeResponse,
} from '../scanner/api.js';
import { sameAnswer } from './support/answer-shape.js';
import { answered } from './support/graphql-answer.js';
import { signsIn } from './support/sign-in-operation.js';

const BYPASS = 'injection.nosql_authentication_bypass';
const INJECTION = 'injection.nosql_operator_injection';
const classifications = {
  owasp: 'API8:2023 Security Misconfiguration',
  cwe: 'CWE-943: Improper Neutralization of Special Elements in Data Query Logic',
};
const url =
  'https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing/07-Input_Validation_Testing/05.6-Testing_for_NoSQL_Injection';

/** An operator, its argument, and a control key of the same length that no database reads as an operator. */
const OPERATORS = [
  { operator: '$ne', control: 'xne', argument: null, again: 'gatehouse-none' },
  { operator: '$gt', control: 'xgt', argument: '', again: ' ' },
] as const;

type Vector = { where: string; request: (key: string, argument: string | null) => ProbeRequest };

/** The body's (or the GraphQL variables') outermost strings: where a query document's values sit. */
function bodyStrings(operation: Operation): OperationInput[] {
  const json = operationInputs(operation).filter(
    (i) => i.sent && i.encoding === 'json' && (i.type ?? 'string') === 'string' && typeof i.example === 'string',
  );
  const depth = Math.min(...json.map((i) => i.pointer!.length));
  return json.filter((i) => i.pointer!.length === depth);
}

const queryInputs = (operation: Operation): OperationInput[] =>
  operationInputs(operation).filter((i) => i.location === 'query' && i.sent);

function vectors(operation: Operation): Vector[] {
  const found: Vector[] = [];
  const strings = bodyStrings(operation);
  if (strings.length > 0) {
    found.push({
      where: `JSON body (${strings.map((i) => i.pointer!.join('.')).join(', ')})`,
      request: (key, argument) =>
        withInputs(
          operation,
          strings.map((input) => ({ input, value: { [key]: argument } })),
        ),
    });
  }
  const params = queryInputs(operation);
  if (params.length > 0) {
    found.push({
      where: `query (${params.map((p) => p.name).join(', ')})`,
      request: (key, argument) => {
        // `name[$ne]=…` is how qs-style parsers (Express, PHP) build an object from a query string.
        const target = new URL(operation.url);
        for (const { name, example } of params) {
          target.searchParams.delete(name);
          target.searchParams.set(`${name}[${key}]`, argument ?? String(example));
        }
        return { url: target.href };
      },
    });
  }
  return found;
}

export default defineCheck({
  id: 'injection.nosql',
  name: 'NoSQL Operator Injection',
  issues: [
    {
      id: BYPASS,
      name: 'NoSQL operator injection signs in without the password',
      url,
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:N/SC:N/SI:N/SA:N', score: 9.3 },
      classifications,
    },
    {
      id: INJECTION,
      name: 'NoSQL query operators in input change the answer',
      url,
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:L/UI:N/VC:H/VI:N/VA:N/SC:N/SI:N/SA:N', score: 7.1 },
      classifications,
    },
  ],
  rerunsAsRaised: true,
  appliesTo: (operation) =>
    payloadRefusal(operation) ??
    (vectors(operation).length > 0 ? true : 'no JSON body string or query parameter to inject into'),
  async run(ctx) {
    const found = vectors(ctx.operation);
    if (found.length === 0) return ctx.skip('no JSON body string or query parameter to inject into');
    const baseline = await ctx.http.send();
    for (const vector of found) {
      for (const { operator, control, argument, again } of OPERATORS) {
        const injected = await ctx.http.send(vector.request(operator, argument));
        // Only a served answer proves a query ran with the operator; a 4xx is input validation (mongo-sanitize refusing `$`).
        if (sameAnswer(injected, baseline) || !answered(injected, ctx.operation)) continue;
        const controlled = await ctx.http.send(vector.request(control, argument));
        // The same answer with the operator's name swapped for the control's: an echo of the input is not a proof.
        const asControl: ProbeResponse = { ...injected, body: injected.body.split(operator).join(control) };
        if (sameAnswer(asControl, controlled)) continue;
        // Confirmed with another argument of the operator: one odd answer proves nothing.
        const confirmed = await ctx.http.send(vector.request(operator, again));
        const ok = (r: ProbeResponse): boolean => answered(r, ctx.operation);
        if (sameAnswer(confirmed, baseline) || !ok(confirmed)) continue;
        const bypass = signsIn(ctx.operation) && ok(injected) && !ok(baseline) && !ok(controlled);
        const detail = `${vector.where} as {"${operator}": ${JSON.stringify(argument)}} answered ${injected.status}, and as {"${operator}": ${JSON.stringify(again)}} ${confirmed.status}; baseline ${baseline.status}, control {"${control}": …} ${controlled.status}`;
        ctx.report(bypass ? BYPASS : INJECTION, {
          detail,
          attempt: injected,
          attempts: [baseline, controlled, confirmed],
        });
        return;
      }
    }
  },
});
