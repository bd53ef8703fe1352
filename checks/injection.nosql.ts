/**
 * injection.nosql — NoSQL (MongoDB-style) operator injection: a JSON body string replaced by a query operator
 * (`{"$ne": null}`, then `{"$gt": ""}`) or a query parameter sent as `name[$ne]=…`, proved against the baseline and
 * against a control that has the same shape but no operator (`{"xne": null}`, `name[xne]=…`). Runs on read operations
 * and POST (logins, searches, creates); never on PUT/PATCH or destructive operations, like injection.sql.
 *
 * Requests: 1 baseline (the operation as given); then for the JSON body (every string property at once) and for the
 * query string (every parameter at once): the `$ne` payload, and only when it is answered unlike the baseline, its
 * control; the `$gt` pair the same way when `$ne` proved nothing. At most 9, typically 3.
 * Verdict: failed when an operator payload is answered 2xx, unlike the baseline and unlike its control:
 * `injection.nosql_authentication_bypass` (9.3) when the operation signs in (support/sign-in-operation.ts) and the
 * operator answer is 2xx where baseline and control are not — the operator replaced the password;
 * `injection.nosql_operator_injection` (7.1) otherwise. Passed otherwise; skipped without a string input.
 */
import {
  changesExistingObject,
  defineCheck,
  operationClass,
  type CheckContext,
  type ProbeRequest,
  type ProbeResponse,
} from '../scanner/api.js';
import { sameAnswer } from './support/answer-shape.js';
import { answered } from './support/graphql-answer.js';
import { injectableInputs, parseJsonBody } from './support/injectable-inputs.js';
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
  { operator: '$ne', control: 'xne', argument: null },
  { operator: '$gt', control: 'xgt', argument: '' },
] as const;

type Vector = { where: string; request: (key: string, argument: string | null) => ProbeRequest };

function vectors(ctx: CheckContext): Vector[] {
  const operation = ctx.operation;
  const found: Vector[] = [];
  // Top-level body strings; a GraphQL operation's are its variables (`variables.name`).
  const depth = operation.graphql ? 2 : 1;
  const strings = injectableInputs(operation).filter((i) => i.in === 'body' && i.pointer!.length === depth);
  if (strings.length > 0) {
    found.push({
      where: `JSON body (${strings.map((i) => i.name).join(', ')})`,
      request: (key, argument) => {
        const body = parseJsonBody(operation)!;
        for (const { pointer } of strings) {
          const parent = pointer!
            .slice(0, -1)
            .reduce<Record<string | number, unknown>>((node, k) => node[k] as Record<string | number, unknown>, body);
          parent[pointer![pointer!.length - 1]] = { [key]: argument };
        }
        return { body: JSON.stringify(body) };
      },
    });
  }
  const credentialParameter = operation.credential?.in === 'query' ? operation.credential.name : undefined;
  const params = [...new URL(operation.url).searchParams].filter(([name]) => name !== credentialParameter);
  if (params.length > 0) {
    found.push({
      where: `query (${params.map(([name]) => name).join(', ')})`,
      request: (key, argument) => {
        const target = new URL(operation.url);
        for (const [name, value] of params) {
          target.searchParams.delete(name);
          target.searchParams.set(`${name}[${key}]`, argument ?? value);
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
  appliesTo: (operation) => {
    const kind = operationClass(operation);
    if (kind === 'destructive') return 'destructive operation: never sent by injection checks';
    if (kind === 'write' && changesExistingObject(operation))
      return `${operation.operationId ?? operation.method} changes an existing object: injected values would stay in it`;
    const hasQuery = [...new URL(operation.url).searchParams].length > 0;
    return hasQuery || injectableInputs(operation).some((i) => i.in === 'body')
      ? true
      : 'no JSON body string or query parameter to inject into';
  },
  async run(ctx) {
    const found = vectors(ctx);
    if (found.length === 0) return ctx.skip('no JSON body string or query parameter to inject into');
    const baseline = await ctx.http.send();
    for (const vector of found) {
      for (const { operator, control, argument } of OPERATORS) {
        const injected = await ctx.http.send(vector.request(operator, argument));
        // Only a served answer proves a query ran with the operator; a 4xx is input validation (mongo-sanitize refusing `$`).
        if (sameAnswer(injected, baseline) || !answered(injected, ctx.operation)) continue;
        const controlled = await ctx.http.send(vector.request(control, argument));
        // The same answer with the operator's name swapped for the control's: an echo of the input is not a proof.
        const asControl: ProbeResponse = { ...injected, body: injected.body.split(operator).join(control) };
        if (sameAnswer(asControl, controlled)) continue;
        const ok = (r: ProbeResponse): boolean => answered(r, ctx.operation);
        const bypass = signsIn(ctx.operation) && ok(injected) && !ok(baseline) && !ok(controlled);
        const detail = `${vector.where} as {"${operator}": ${JSON.stringify(argument)}} answered ${injected.status}; baseline ${baseline.status}, control {"${control}": …} ${controlled.status}`;
        ctx.report(bypass ? BYPASS : INJECTION, { detail, attempt: injected, attempts: [baseline, controlled] });
        return;
      }
    }
  },
});
