/**
 * resource.redos — regular-expression denial of service (OWASP API4:2023): a string the server validates with a
 * backtracking pattern costs time that grows faster than its length. Aimed at one input per operation: a declared
 * `pattern` first, then an e-mail input (`format: email` or an e-mail-like name), then a user-name-like one.
 * Runs on read operations, on writes that only validate (login, validate, check, verify, lookup, search, available),
 * and on other POSTs (registration) only while they refuse every string sent with a 4xx — every string is invalid,
 * so a write that validates stores nothing; the first one accepted ends the probe. An update (PUT/PATCH) is probed
 * only on a scan identity's own record (the API model's target of the first identity's request: its me-like record,
 * its own user): the body carries just the aimed field, the record is read first (an oracle) and the field set back
 * to its earlier value afterwards; an update of any other object, or one whose field the record does not show (it
 * could not be set back), is skipped. Never on destructive operations.
 *
 * Requests: one at a time, never in parallel with anything — the check is `exclusive`: it runs after every other
 * check of the scan, one operation at a time, so no probe is timed while other traffic (another check's long input to
 * the same backtracking pattern) slows the server, and the scan never sends two of them at once — each capped at 5 s
 * (`timeoutMs`): for lengths 10, 1 000, 5 000 and 20 000 characters (query inputs: 10, 1 000, 5 000, 10 000 — longer
 * URLs are refused before any pattern), the attack string (a character the pattern repeats, then one it refuses, which
 * makes a backtracking engine try every split) and a benign string of that length (a character outside the pattern,
 * checked linearly). When the attack looks slow it is sent once more to confirm, unless it took ≥ 1 s more and ≥ 10×
 * as long as the benign string. 8 requests when nothing looks slow, at most 12; it stops at the first confirmed
 * growth, and early when the server refuses long inputs with another status (a length limit).
 * Verdict: failed when, at some length, the attack took ≥ 200 ms longer than the benign string of the same length
 * (and ≥ 3× as long), twice (once when ≥ 1 s more and 10×), and its excess grew faster than the length did since the
 * previous step (superlinear: a longer string costs more, but only backtracking costs more per character) — or the
 * attack hit the 5 s cap while the benign string did not. The times are the evidence. Passed otherwise.
 */
import {
  operationClass,
  defineCheck,
  describeInput,
  isTextInput,
  operationInputs,
  withInput,
  type CheckContext,
  type Operation,
  type OperationInput,
  type ProbeResponse,
} from '../scanner/api.js';

const ISSUE = 'unrestricted_resource_consumption.redos';
const BODY_LENGTHS = [10, 1000, 5000, 20000];
// Node refuses request heads over 16 KB (many proxies over 8 KB) before any pattern runs: query strings stay shorter.
const QUERY_LENGTHS = [10, 1000, 5000, 10000];
const CAP_MS = 5000;
const MIN_EXCESS_MS = 200;
const VALIDATION_ONLY = /log[ _-]?in|sign[ _-]?in|validat|check|verif|lookup|search|available|exists/i;
const EMAIL = /e?-?mail/i;
const USER = /^(user(_?name)?|login|handle|nick(name)?|slug|account(_?name)?)$/i;

/** The input to aim at, with the attack's repeated atom and refused suffix. */
export function redosTarget(
  operation: Operation,
): { field: OperationInput; atom: string; suffix: string; benign: string } | undefined {
  // Text the server validates: not a path, header or cookie (length limits of the request line and head come first).
  const strings = operationInputs(operation).filter(
    (f) =>
      isTextInput(f) &&
      !['path', 'header', 'cookie'].includes(f.location) &&
      (f.type === 'string' || (f.type === undefined && (f.example === undefined || typeof f.example === 'string'))),
  );
  // A declared pattern that repeats without bound comes first; a bounded one ({3,32}) cannot backtrack far on the
  // server either when the server uses it, so an e-mail input (validated by who knows what) goes before it.
  const unbounded = strings.find(
    (f) => f.declared?.pattern && /[+*]|\{\d+,\}/.test(f.declared.pattern.replace(/\\./g, '')),
  );
  const email = strings.find(
    (f) =>
      f.declared?.format === 'email' ||
      EMAIL.test(f.name) ||
      (typeof f.example === 'string' && /^[^@\s]+@[^@\s]+$/.test(f.example)),
  );
  const bounded = strings.find((f) => f.declared?.pattern);
  const user = strings.find((f) => USER.test(f.name));
  const field = unbounded ?? email ?? bounded ?? user;
  if (!field) return undefined;
  let atom = 'a';
  let suffix = '!';
  const pattern = field.declared?.pattern;
  if (pattern) {
    let re: RegExp | undefined;
    try {
      re = new RegExp(pattern, 'u');
    } catch {
      re = undefined; // a pattern JavaScript cannot read: the default atom still probes it
    }
    // Only 3–4 character strings are tested here: the scanner never runs a suspicious pattern on a long input.
    if (re) {
      atom = ['a', '0', 'A', 'a.', 'a-', '0.', ' '].find((a) => re.test(a.repeat(3))) ?? 'a';
      suffix = ['!', '\u0000', ' ', '@'].find((s) => !re.test(a3(atom) + s)) ?? '!';
    }
  }
  // Characters no e-mail or name pattern repeats (RFC 5322 local parts take even ! # ~): checked in linear time.
  // A space is one character in a query string (`+`); the others would triple in length once percent-encoded.
  const benign =
    [...(field.location === 'query' ? [' '] : []), ',', '<', '(', ' ', '~'].find(
      (c) => c !== suffix && !atom.includes(c) && !repeats(pattern, c),
    ) ?? ',';
  return { field, atom, suffix, benign };
}

const a3 = (atom: string): string => atom.repeat(3);

function repeats(pattern: string | undefined, c: string): boolean {
  if (!pattern) return false;
  try {
    return new RegExp(pattern, 'u').test(c.repeat(3));
  } catch {
    return false;
  }
}

const fill = (atom: string, length: number): string => atom.repeat(Math.ceil(length / atom.length)).slice(0, length);

interface Timed {
  ms: number;
  status: number | 'timeout';
}

/** What the probe sends: the operation as given, or (an own-record update) a body of just the aimed field. */
interface ProbeTarget {
  operation: Operation;
  /** An own-record update: the check sets the field back (the send gate lets an e-mail change through then). */
  restores: boolean;
}

async function timed(ctx: CheckContext, target: ProbeTarget, field: OperationInput, value: string): Promise<Timed> {
  const started = performance.now();
  try {
    const response: ProbeResponse = await ctx.http.send({
      ...withInput(target.operation, field, value),
      timeoutMs: CAP_MS,
      ...(target.restores ? { restores: true } : {}),
    });
    return { ms: response.durationMs ?? performance.now() - started, status: response.status };
  } catch (error) {
    // Only the cap ends a request late: an error before it (the send gate's refusal, a reset) is not a slow answer.
    if (ctx.signal.aborted || performance.now() - started < CAP_MS * 0.9) throw error;
    return { ms: Math.max(CAP_MS, performance.now() - started), status: 'timeout' };
  }
}

export default defineCheck({
  id: 'resource.redos',
  name: 'Regular Expression Denial of Service',
  issues: [
    {
      id: ISSUE,
      name: 'Input validation time grows superlinearly with input length (ReDoS)',
      url: 'https://owasp.org/API-Security/editions/2023/en/0xa4-unrestricted-resource-consumption/',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:N/VI:N/VA:L/SC:N/SI:N/SA:N', score: 6.9 },
      classifications: {
        owasp: 'API4:2023 Unrestricted Resource Consumption',
        cwe: 'CWE-1333: Inefficient Regular Expression Complexity',
      },
    },
  ],
  scanKinds: ['curl', 'openapi'],
  exclusive: true,
  // At most 12 probes capped at 5 s each, and an own record's read and restore.
  timeoutMs: 90_000,
  appliesTo: (operation) => {
    const kind = operationClass(operation);
    if (kind === 'destructive') return 'destructive operation: never sent at defaults';
    return redosTarget(operation) ? true : 'no pattern-validated, e-mail or user-name input';
  },
  run: async (ctx) => {
    const kind = operationClass(ctx.operation);
    if (kind !== 'write' || ctx.operation.method.toUpperCase() === 'POST')
      return probe(ctx, { operation: ctx.operation, restores: false });
    return probeOwnRecord(ctx);
  },
});

/**
 * An update (PUT/PATCH): probed only on the first identity's own record, the aimed field alone in the body, and set
 * back to the value the record showed before (an e-mail address included: the send gate lets it through as restored).
 */
async function probeOwnRecord(ctx: CheckContext): Promise<void> {
  const operation = ctx.operation;
  const notOwn =
    "an update (PUT/PATCH) of an object that is not a scan identity's own record: the probe would write onto it";
  if (ctx.model.given) return ctx.skip(`${notOwn} (a curl scan: the model does not know whose it is)`);
  const { field } = redosTarget(operation)!;
  if (field.location !== 'body' || (field.pointer ?? [field.name]).length !== 1)
    return ctx.skip('an update whose aimed input is not a top-level body field: it could not be set back alone');
  if (ctx.model.references(operation).some((r) => r.in === 'body' && r.pointer === `/${field.name}` && !r.credential))
    return ctx.skip(`"${field.name}" names the object the update acts on: a probe in it would name another one`);
  const target = ctx.model.targetOf(operation, { url: operation.url, body: operation.body }, 'first');
  if (!target || target.owner !== 'first') return ctx.skip(notOwn);
  const before = await ctx.model.readBack(ctx.http, target, { write: operation, as: 'first' });
  const earlier = before.object?.[field.name];
  if (typeof earlier !== 'string')
    return ctx.skip(
      `the first identity's own record does not show "${field.name}" (${before.oracle?.describe ?? 'no read of it answered'}): the probe could not be set back`,
    );
  const own: ProbeTarget = {
    operation: { ...operation, body: JSON.stringify({ [field.name]: earlier }) },
    restores: true,
  };
  try {
    await probe(
      ctx,
      own,
      `on the first identity's own record (${before.oracle!.describe} showed it), "${field.name}" set back to its earlier value afterwards`,
    );
  } finally {
    const restore = await ctx.http
      .send({ ...withInput(own.operation, field, earlier), restores: true })
      .catch(() => undefined);
    const after = await ctx.model.readBack(ctx.http, target, { write: operation, as: 'first' });
    if (after.object?.[field.name] !== earlier)
      ctx.log.warn(
        `resource.redos: "${field.name}" of the first identity's record could not be set back (${restore?.status ?? 'no answer'}): set it to ${JSON.stringify(earlier)} by hand`,
      );
  }
}

async function probe(ctx: CheckContext, target: ProbeTarget, where?: string): Promise<void> {
  const { field, atom, suffix, benign } = redosTarget(target.operation)!;
  const steps: string[] = [];
  let previous: { length: number; excess: number } | undefined;
  let first: { benign: Timed; attack: Timed } | undefined;
  // A write that is not validation-only by name is probed only while it refuses every string (4xx): it validates the
  // input before storing anything. The first answer that accepts one ends the probe.
  const names = [ctx.operation.path, ctx.operation.operationId ?? '', ctx.operation.summary ?? ''].join(' ');
  // An own-record update is set back afterwards: what it accepts on the way is undone.
  const guarded = !target.restores && operationClass(ctx.operation) === 'write' && !VALIDATION_ONLY.test(names);
  const refused = (t: Timed): boolean =>
    !guarded || (typeof t.status === 'number' && t.status >= 400 && t.status < 500) || t.status === 'timeout';
  for (const length of field.location === 'query' ? QUERY_LENGTHS : BODY_LENGTHS) {
    const attack = await timed(ctx, target, field, `${fill(atom, length - suffix.length)}${suffix}`);
    if (!refused(attack))
      return ctx.skip(
        `the write accepted an invalid ${field.name} (${attack.status}): not probed further, so it stores nothing more`,
      );
    const plain = await timed(ctx, target, field, fill(benign, length));
    if (!refused(plain))
      return ctx.skip(
        `the write accepted an invalid ${field.name} (${plain.status}): not probed further, so it stores nothing more`,
      );
    const excess = attack.ms - plain.ms;
    steps.push(
      `${length} chars: benign ${Math.round(plain.ms)} ms (${plain.status}), attack ${Math.round(attack.ms)} ms (${attack.status})`,
    );
    const capped = attack.status === 'timeout' && plain.status !== 'timeout';
    const superlinear = !previous || excess > (length / previous.length) * Math.max(previous.excess, 20);
    const grew = (t: Timed): boolean => t.ms - plain.ms >= MIN_EXCESS_MS && t.ms >= 3 * plain.ms;
    // One slow answer may be a pause of the server: the same attack must be slow again before anything is reported —
    // unless it took a second more and ten times as long as the benign string, which no pause explains.
    const overwhelming = attack.ms - plain.ms >= 1000 && attack.ms >= 10 * plain.ms;
    let settled = excess;
    let confirmed = capped;
    if (!capped && grew(attack) && superlinear) {
      const again = overwhelming
        ? attack
        : await timed(ctx, target, field, `${fill(atom, length - suffix.length)}${suffix}`);
      confirmed = grew(again);
      // A pause that inflated the first send must not raise the bar the next length has to clear.
      settled = Math.min(excess, again.ms - plain.ms);
    }
    if (confirmed) {
      ctx.report(ISSUE, {
        detail: `${ctx.operation.method} ${describeInput(field).replace(' ', ' input "')}": ${steps.join('; ')}${capped ? ` — the attack hit the ${CAP_MS} ms cap` : ''}. Stopped at the first clear growth${where ? `; ${where}` : ''}.`,
      });
      ctx.setFact('timings', steps);
      return;
    }
    if (!first) first = { benign: plain, attack };
    else if (plain.status !== first.benign.status && attack.status === plain.status && excess < MIN_EXCESS_MS) {
      ctx.setFact('timings', steps);
      return; // long inputs are refused before any pattern runs (a length limit): longer ones prove nothing more
    }
    previous = { length, excess: settled };
  }
  ctx.setFact('timings', steps);
}
