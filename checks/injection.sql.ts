/**
 * injection.sql — SQL injection in text inputs (every input of scanner/model/inputs.ts that reaches the server as text:
 * path, query, declared headers and cookies, JSON body strings at any depth, form and multipart fields), proved by a
 * differential against the operation's own answer, never by one odd status. Runs on read operations and on POST
 * (creates, logins, searches); never on PUT/PATCH (they would leave injected values in an existing object, often the
 * scan identity's own) nor on destructive operations (scanner/operation-class.ts).
 *
 * Requests: 1 baseline (the operation as given), then per input (at most 8, see support/injection-targets.ts):
 * 1) the value with a quote appended; only when that answer is not the baseline's, 2) the quote doubled (balanced
 * again) and, when that mended it, three quotes (broken again: the count decides, not the character), and 3–4) a
 * true/false pair (`' AND 'n'='n` / `' AND 'n'='n+1`, or `AND n=n` / `AND n=n+1` for numbers, n a number of the
 * operation's own so values stored by other probes of the scan never answer it), confirmed by a second pair with
 * other literals (n+7) — never a finding from one response;
 * when the quote changed nothing, 2) a backslash instead (escaping the closing quote) with the same follow-ups.
 * It stops at the first proven input. With `--sql-time-based <seconds>` (option `sqlTimeBased`, off by default; read
 * operations only, first 3 inputs): per engine a sleep payload, and when it is slow a zero-sleep control and a sleep
 * one second longer.
 * Verdict (the strongest proof wins, one finding per operation):
 * - `injection.sql_boolean_based` (9.3): the true payload is answered like the baseline (status and shape) and the
 *   false payload unlike it — the input is evaluated as SQL;
 * - `injection.sql_time_based` (9.3): the sleep payload takes the asked time, the one a second longer at least its
 *   time and about a second more, and the zero-sleep control does not;
 * - `injection.sql_error_based` (8.8): the quote brings a database error text (support/sql-error-signatures.ts)
 *   the baseline did not have, and the balanced quote answers without it;
 * - `injection.sql_quote_error` (6.3): the quote turns a non-5xx baseline into a 5xx and the balanced quote does not.
 * Passed otherwise; skipped when the operation has no string input.
 */
import { createHash } from 'node:crypto';
import {
  defineCheck,
  describeInput,
  operationClass,
  textOf,
  withInput,
  type CheckContext,
  type OperationInput,
  type ProbeRequest,
  type ProbeResponse,
} from '../scanner/api.js';
import { isServerError, sameAnswer } from './support/answer-shape.js';
import { timedAnswer } from './support/timed-answer.js';
import { injectionTargets, injectionTargetsRefusal } from './support/injection-targets.js';
import { sqlErrorIn } from './support/sql-error-signatures.js';
import { answerStatus, type GraphqlSide } from './support/graphql-answer.js';

const BOOLEAN = 'injection.sql_boolean_based';
const TIME = 'injection.sql_time_based';
const ERROR = 'injection.sql_error_based';
const QUOTE = 'injection.sql_quote_error';
const P = 'CVSS:4.0/AV:N/AC:L';
const classifications = {
  owasp: 'API8:2023 Security Misconfiguration',
  cwe: "CWE-89: Improper Neutralization of Special Elements used in an SQL Command ('SQL Injection')",
};
const url = 'https://owasp.org/www-community/attacks/SQL_Injection';

interface Proof {
  issue: string;
  detail: string;
  attempt: ProbeResponse;
  attempts: ProbeResponse[];
}

const STRENGTH = [BOOLEAN, TIME, ERROR, QUOTE];

/** The strongest of two proofs, its detail completed with what the weaker one showed. */
function stronger(a: Proof | undefined, b: Proof | undefined): Proof | undefined {
  if (!a || !b) return a ?? b;
  const [strong, weak] = STRENGTH.indexOf(b.issue) < STRENGTH.indexOf(a.issue) ? [b, a] : [a, b];
  return {
    ...strong,
    detail: `${strong.detail}; also: ${weak.detail}`,
    attempts: [...strong.attempts, weak.attempt, ...weak.attempts],
  };
}

/** `200, 3 records` — enough to see why two answers differ. */
function describe(response: ProbeResponse): string {
  try {
    const body = JSON.parse(response.body) as unknown;
    if (Array.isArray(body)) return `${response.status}, ${body.length} record${body.length === 1 ? '' : 's'}`;
  } catch {
    // not JSON: the status and length say it
  }
  return `${response.status}, ${response.body.length} bytes`;
}

/** A breaking character and the same character made harmless again. */
const BREAKERS = [
  { name: 'quote', broken: "'", balanced: "''" },
  { name: 'backslash', broken: '\\', balanced: '\\\\' },
];

function errorLike(
  probe: ProbeResponse,
  baseline: ProbeResponse,
  side: GraphqlSide,
): { signature?: string; status?: number } | undefined {
  const signature = sqlErrorIn(probe.body);
  if (signature && !sqlErrorIn(baseline.body)) return { signature: `${signature.dbms}: ${signature.excerpt}` };
  // GraphQL: a resolver that threw answers 200 with an error, which stands for a 500 (support/graphql-answer.ts).
  const failed = (r: ProbeResponse): boolean => isServerError({ ...r, status: answerStatus(r, side) });
  if (failed(probe) && !failed(baseline)) return { status: answerStatus(probe, side) };
  return undefined;
}

/**
 * A number of the operation's own (from its id): the pair's literals differ per operation, so a value another probe of
 * this scan stored (a user registered as `carol' AND '1'='1`) is never found again by another operation's pair.
 */
function tagOf(operationId: string): number {
  return 1000 + (Number.parseInt(createHash('sha256').update(operationId).digest('hex').slice(0, 6), 16) % 9000);
}

/** A tautology and a contradiction after the value: quoted (a string literal) or bare (a number). */
function pairFor(value: string, n: number, bare: boolean): { truthy: string; falsy: string } {
  return bare
    ? { truthy: `${value} AND ${n}=${n}`, falsy: `${value} AND ${n}=${n + 1}` }
    : { truthy: `${value}' AND '${n}'='${n}`, falsy: `${value}' AND '${n}'='${n + 1}` };
}

async function booleanPair(
  ctx: CheckContext,
  input: OperationInput,
  baseline: ProbeResponse,
): Promise<Proof | undefined> {
  const tag = tagOf(ctx.operation.id);
  const value = textOf(input);
  const pairs = [pairFor(value, tag, false)];
  if (/^-?\d+$/.test(value)) pairs.push(pairFor(value, tag, true));
  for (const [index, { truthy, falsy }] of pairs.entries()) {
    const yes = await ctx.http.send(withInput(ctx.operation, input, truthy));
    if (!sameAnswer(yes, baseline, [truthy, value])) continue;
    const no = await ctx.http.send(withInput(ctx.operation, input, falsy));
    if (sameAnswer(no, yes, [truthy, falsy, value])) continue;
    // Confirmed with other literals: a create that happened to collide, or a flaky answer, does not repeat.
    const again = pairFor(value, tag + 7, index === 1);
    const yes2 = await ctx.http.send(withInput(ctx.operation, input, again.truthy));
    if (!sameAnswer(yes2, baseline, [again.truthy, value])) continue;
    const no2 = await ctx.http.send(withInput(ctx.operation, input, again.falsy));
    if (sameAnswer(no2, yes2, [again.truthy, again.falsy, value])) continue;
    return {
      issue: BOOLEAN,
      detail: `${describeInput(input)}: "${truthy}" is answered like the baseline (${describe(yes)}) and "${falsy}" unlike it (${describe(no)}), and again with ${tag + 7} (${describe(yes2)} / ${describe(no2)})`,
      attempt: no,
      attempts: [baseline, yes, yes2, no2],
    };
  }
  return undefined;
}

async function probeInput(
  ctx: CheckContext,
  input: OperationInput,
  baseline: ProbeResponse,
): Promise<Proof | undefined> {
  const value = textOf(input);
  for (const breaker of BREAKERS) {
    const broken = await ctx.http.send(withInput(ctx.operation, input, `${value}${breaker.broken}`));
    if (sameAnswer(broken, baseline, [breaker.broken, value])) continue;
    let proof: Proof | undefined;
    const error = errorLike(broken, baseline, ctx.operation);
    if (error) {
      const balanced = await ctx.http.send(withInput(ctx.operation, input, `${value}${breaker.balanced}`));
      // Confirmed by an odd count again (three): it breaks, two mend it, three break it — the count decides.
      const odd = errorLike(balanced, baseline, ctx.operation)
        ? undefined
        : await ctx.http.send(withInput(ctx.operation, input, `${value}${breaker.broken.repeat(3)}`));
      if (odd && errorLike(odd, baseline, ctx.operation)) {
        const what = error.signature
          ? `a database error (${error.signature})`
          : `${error.status} (baseline ${baseline.status})`;
        proof = {
          issue: error.signature ? ERROR : QUOTE,
          detail: `${describeInput(input)}: a ${breaker.name} appended brings ${what}, and three of them again (${odd.status}); doubled, it answers ${balanced.status}`,
          attempt: broken,
          attempts: [baseline, balanced, odd],
        };
      }
    }
    return stronger(proof, await booleanPair(ctx, input, baseline));
  }
  return undefined;
}

/**
 * What a timed request may take beyond the sleep it asks for before it is cut (a hanging target proves nothing) —
 * or less: the scan's own request limit (`-m`, 10 s by default) cuts it first when that is sooner.
 */
const SLEEP_MARGIN_S = 5;
/** How much longer the one-second-longer sleep must take than the first (a second asked, jitter allowed). */
const GROWTH_MS = 750;

/** Sleep payloads that run once per query (a subquery or a statement), not once per row. */
const SLEEPS: { dbms: string; payload: (value: string, seconds: number) => string }[] = [
  { dbms: 'MySQL', payload: (v, s) => `${v}' AND (SELECT 1 FROM (SELECT SLEEP(${s}))x)-- -` },
  { dbms: 'PostgreSQL', payload: (v, s) => `${v}'||(SELECT '' FROM pg_sleep(${s}))||'` },
  { dbms: 'Microsoft SQL Server', payload: (v, s) => `${v}'; WAITFOR DELAY '0:0:${s}'-- ` },
];

/** A request asking the database to sleep `seconds`: one cut at the margin (a hanging target) proves nothing. */
function timed(ctx: CheckContext, request: ProbeRequest, seconds: number): Promise<ProbeResponse | undefined> {
  return timedAnswer(ctx.signal, () => ctx.http.send({ ...request, timeoutMs: (seconds + SLEEP_MARGIN_S) * 1000 }));
}

async function timeBased(
  ctx: CheckContext,
  inputs: OperationInput[],
  baseline: ProbeResponse,
  seconds: number,
): Promise<Proof | undefined> {
  const slow = (r: ProbeResponse): boolean =>
    r.durationMs >= seconds * 1000 && baseline.durationMs < (seconds * 1000) / 2;
  // The confirmation asks for one second more: a different payload whose wait must grow by about what was added.
  // (One more, not twice: a doubled 8-second sleep would outlast the scan's default 10-second request limit.)
  const longer = seconds + 1;
  for (const input of inputs.slice(0, 3)) {
    for (const { dbms, payload } of SLEEPS) {
      const sleep = (s: number) => timed(ctx, withInput(ctx.operation, input, payload(textOf(input), s)), s);
      const first = await sleep(seconds);
      if (!first || !slow(first)) continue;
      const control = await sleep(0);
      if (!control || slow(control)) continue;
      const again = await sleep(longer);
      if (!again || again.durationMs < longer * 1000 || again.durationMs - first.durationMs < GROWTH_MS) continue;
      return {
        issue: TIME,
        detail: `${describeInput(input)}: a ${dbms} sleep of ${seconds} s took ${first.durationMs} ms, one of ${longer} s ${again.durationMs} ms, the zero-second control ${control.durationMs} ms (baseline ${baseline.durationMs} ms)`,
        attempt: again,
        attempts: [baseline, first, control],
      };
    }
  }
  return undefined;
}

export default defineCheck({
  id: 'injection.sql',
  name: 'SQL Injection',
  issues: [
    {
      id: BOOLEAN,
      name: 'SQL injection (boolean differential)',
      url,
      cvss: { version: 4.0, vector: `${P}/AT:N/PR:N/UI:N/VC:H/VI:H/VA:N/SC:N/SI:N/SA:N`, score: 9.3 },
      classifications,
    },
    {
      id: TIME,
      name: 'SQL injection (time-based)',
      url,
      cvss: { version: 4.0, vector: `${P}/AT:N/PR:N/UI:N/VC:H/VI:H/VA:N/SC:N/SI:N/SA:N`, score: 9.3 },
      classifications,
    },
    {
      id: ERROR,
      name: 'SQL injection (database error)',
      url,
      cvss: { version: 4.0, vector: `${P}/AT:N/PR:N/UI:N/VC:H/VI:L/VA:N/SC:N/SI:N/SA:N`, score: 8.8 },
      classifications,
    },
    {
      id: QUOTE,
      name: 'A quote breaks a server-side query (possible SQL injection)',
      url,
      cvss: { version: 4.0, vector: `${P}/AT:P/PR:N/UI:N/VC:L/VI:L/VA:N/SC:N/SI:N/SA:N`, score: 6.3 },
      classifications,
    },
  ],
  rerunsAsRaised: true,
  options: [
    {
      name: 'sqlTimeBased',
      type: 'integer',
      flag: '--sql-time-based',
      valueName: '<seconds>',
      doc: 'also try time-based SQL injection, sleeping this many seconds (read operations only; off by default)',
      min: 1,
      max: 8,
    },
  ],
  appliesTo: (operation) => injectionTargetsRefusal(operation) ?? true,
  async run(ctx) {
    const inputs = injectionTargets(ctx.operation);
    const baseline = await ctx.http.send();
    let proof: Proof | undefined;
    for (const input of inputs) {
      proof = await probeInput(ctx, input, baseline);
      if (proof) break;
    }
    const seconds = ctx.options.sqlTimeBased;
    if (!proof && seconds !== undefined && operationClass(ctx.operation) === 'read')
      proof = await timeBased(ctx, inputs, baseline, seconds);
    if (proof) ctx.report(proof.issue, { detail: proof.detail, attempt: proof.attempt, attempts: proof.attempts });
  },
});
