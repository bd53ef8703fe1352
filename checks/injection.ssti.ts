/**
 * injection.ssti — server-side template injection (CWE-1336) in text inputs (support/injection-targets.ts): an input
 * pasted into a template the server renders, so template expressions in it are evaluated on the server.
 *
 * Requests per input, stopping at the first confirmed one: 1) the five common expression syntaxes at once —
 * `{{7*191}}`, `${7*191}`, `<%= 7*191 %>`, `#{7*191}`, `{7*191}` — looking for `1337` where the baseline has none;
 * only when that answer shows 1337, or fails unlike the baseline (a template syntax error), 2) each syntax alone
 * until one renders 1337 without its literal, 3) a second expression of that syntax (`7*193` → `1351`), 4) the same
 * arithmetic without delimiters (the control: a calculator, not a template, would answer 1351 too), and for `{{ }}`
 * 5) `{{7*'7'}}`, which tells Jinja2 (`7777777`) from Twig and Nunjucks (`49`). One request for a clean input.
 * Verdict: `injection.ssti` (9.3) when two expressions of one syntax are evaluated, their literals absent, and the
 * control is not; the syntax and the engines it belongs to are named, the evidence carries every exchange. Passed
 * otherwise; skipped without a text input.
 */
import {
  defineCheck,
  describeInput,
  textOf,
  withInput,
  type CheckContext,
  type OperationInput,
  type ProbeResponse,
} from '../scanner/api.js';
import { isServerError, sameAnswer } from './support/answer-shape.js';
import { injectionTargets, injectionTargetsRefusal } from './support/injection-targets.js';

const ISSUE = 'injection.ssti';

interface Syntax {
  name: string;
  engines: string;
  expression: (arithmetic: string) => string;
}

const SYNTAXES: Syntax[] = [
  { name: '{{ }}', engines: 'Jinja2, Twig, Nunjucks', expression: (a) => `{{${a}}}` },
  { name: '${ }', engines: 'FreeMarker, Thymeleaf, Mako, JavaScript template literals', expression: (a) => `\${${a}}` },
  { name: '<%= %>', engines: 'ERB, EJS', expression: (a) => `<%= ${a} %>` },
  { name: '#{ }', engines: 'Pug, Ruby interpolation, FreeMarker', expression: (a) => `#{${a}}` },
  { name: '{ }', engines: 'Smarty, Latte', expression: (a) => `{${a}}` },
];

const FIRST = { arithmetic: '7*191', result: '1337' };
const SECOND = { arithmetic: '7*193', result: '1351' };

/** The expression was evaluated: its result is in the answer, the baseline did not have it, the literal is gone. */
function evaluated(response: ProbeResponse, baseline: ProbeResponse, result: string, literal: string): boolean {
  return response.body.includes(result) && !baseline.body.includes(result) && !response.body.includes(literal);
}

interface Proof {
  detail: string;
  attempt: ProbeResponse;
  attempts: ProbeResponse[];
}

async function probeInput(
  ctx: CheckContext,
  input: OperationInput,
  baseline: ProbeResponse,
): Promise<Proof | undefined> {
  const value = textOf(input);
  const send = (text: string): Promise<ProbeResponse> => ctx.http.send(withInput(ctx.operation, input, text));
  const all = SYNTAXES.map((s) => s.expression(FIRST.arithmetic)).join('');
  const polyglot = await send(`${value}${all}`);
  const showed = polyglot.body.includes(FIRST.result) && !baseline.body.includes(FIRST.result);
  // One syntax the engine refuses may fail the whole polyglot: an error unlike the baseline is worth a closer look.
  const broke = isServerError(polyglot) && !isServerError(baseline) && !sameAnswer(polyglot, baseline, [all, value]);
  if (!showed && !broke) return undefined;
  for (const syntax of SYNTAXES) {
    const first = syntax.expression(FIRST.arithmetic);
    const one = await send(`${value}${first}`);
    if (!evaluated(one, baseline, FIRST.result, first)) continue;
    const second = syntax.expression(SECOND.arithmetic);
    const two = await send(`${value}${second}`);
    if (!evaluated(two, baseline, SECOND.result, second)) continue;
    const control = await send(`${value}${SECOND.arithmetic}`);
    if (control.body.includes(SECOND.result)) return undefined; // the arithmetic is computed without any template
    let engine = syntax.engines;
    const attempts = [baseline, polyglot, one, control];
    if (syntax.name === '{{ }}') {
      const probe = await send(`${value}{{7*'7'}}`);
      attempts.push(probe);
      if (probe.body.includes('7777777')) engine = "Jinja2 (7*'7' renders 7777777)";
      else if (probe.body.includes('49') && !baseline.body.includes('49'))
        engine = "Twig or Nunjucks (7*'7' renders 49)";
    }
    return {
      detail: `${describeInput(input)}: the template syntax ${syntax.name} is evaluated (${engine}): ${first} rendered ${FIRST.result} and ${second} rendered ${SECOND.result}, their literals absent; ${SECOND.arithmetic} without delimiters stayed as sent`,
      attempt: two,
      attempts,
    };
  }
  return undefined;
}

export default defineCheck({
  id: 'injection.ssti',
  name: 'Server-Side Template Injection',
  issues: [
    {
      id: ISSUE,
      name: 'Server-side template injection (expressions in input are evaluated)',
      url: 'https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing/07-Input_Validation_Testing/18-Testing_for_Server-side_Template_Injection',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N', score: 9.3 },
      classifications: {
        owasp: 'API8:2023 Security Misconfiguration',
        cwe: 'CWE-1336: Improper Neutralization of Special Elements Used in a Template Engine',
      },
    },
  ],
  rerunsAsRaised: true,
  appliesTo: (operation) => injectionTargetsRefusal(operation) ?? true,
  async run(ctx) {
    const baseline = await ctx.http.send();
    for (const input of injectionTargets(ctx.operation)) {
      const proof = await probeInput(ctx, input, baseline);
      if (proof) return ctx.report(ISSUE, proof);
    }
  },
});
