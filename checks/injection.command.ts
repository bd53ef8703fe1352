/**
 * injection.command — OS command injection (CWE-78) in text inputs (support/injection-targets.ts: every location,
 * GraphQL arguments included, at most 8 inputs; never on destructive operations or updates of existing objects).
 * Every command sent only prints, waits a few seconds or fetches the scan's own callback: `echo`, `sleep 2`/`sleep 4`,
 * `curl -s -m 3` (or `wget -q -T 3 -O-`) to standard output. Nothing that writes, deletes or keeps running.
 *
 * Requests per input (3 for a clean one), stopping at the first confirmed one: 1) command substitution
 * (`$(echo M)`, backticks), a newline and breaking out of single and double quotes, 2) the separators `;` `|` `&&`
 * `||` and Windows `&` — each printing a marker M the payload itself does not show (an occurrence after `echo` is
 * the input reflected, not run); 3) `;sleep 2;…;#$(sleep 2;…)` (one two-second wait in unquoted and double-quoted
 * contexts) carrying, with a reachable callback (a loopback target, or `--callback-host`), a `curl` of a URL naming
 * the input; once every input is tried, one wait of at most 1.5 s for the callbacks.
 * Confirmation (never one response): a printed marker is confirmed by each form of that probe alone with a second
 * marker, then a control (the same form running `:`, which prints nothing) that must not show its marker; a delay by `sleep 4`
 * taking ≥ 4 s and `sleep 0` (the control) staying near the baseline; a callback by a second callback URL, and a
 * control sending the plain URL as the value (a server that fetches URLs is SSRF, not a shell). The evidence carries
 * every exchange: baseline, probe, confirmation and control.
 * Verdict: `injection.os_command` (9.3) with the form and shell (POSIX or Windows cmd) named;
 * `injection.os_command_blind` (9.3) for a confirmed delay or callback. Passed otherwise; skipped without a text input.
 */
import {
  canCarry,
  defineCheck,
  describeInput,
  textOf,
  withInput,
  type CheckContext,
  type OperationInput,
  type ProbeResponse,
} from '../scanner/api.js';
import {
  callbackHostOption,
  isLoopback,
  listenForCallbacks,
  type CallbackListener,
} from './support/callback-server.js';
import { injectionTargets, injectionTargetsRefusal } from './support/injection-targets.js';
import { payloadNumber } from './support/payload-numbers.js';
import { CALLBACK_HOST } from './support/shared-options.js';
import { timedAnswer } from './support/timed-answer.js';

const OUTPUT = 'injection.os_command';
const BLIND = 'injection.os_command_blind';
const classifications = {
  owasp: 'API8:2023 Security Misconfiguration',
  cwe: "CWE-78: Improper Neutralization of Special Elements used in an OS Command ('OS Command Injection')",
};
const url = 'https://owasp.org/www-community/attacks/Command_Injection';
const CRITICAL = 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N';
const SLEEP_CAP_MS = 9000;
const CALLBACK_WAIT_MS = 1500;

/** One way of getting a command run, and the shell it belongs to. */
interface Form {
  name: string;
  shell: 'POSIX shell' | 'Windows cmd' | 'POSIX shell or Windows cmd';
  wrap: (value: string, command: string) => string;
  /** Carries a line break: not for headers. */
  newline?: boolean;
}

const FORMS = {
  substitution: { name: '$( ) substitution', shell: 'POSIX shell', wrap: (v, c) => `${v}$(${c})` },
  backticks: { name: 'backtick substitution', shell: 'POSIX shell', wrap: (v, c) => `${v}\`${c}\`` },
  newline: { name: 'a newline', shell: 'POSIX shell', wrap: (v, c) => `${v}\n${c}\n`, newline: true },
  semicolon: { name: '`;`', shell: 'POSIX shell', wrap: (v, c) => `${v};${c};` },
  pipe: { name: '`|`', shell: 'POSIX shell or Windows cmd', wrap: (v, c) => `${v}|${c}` },
  and: { name: '`&&`', shell: 'POSIX shell or Windows cmd', wrap: (v, c) => `${v}&&${c}` },
  or: { name: '`||`', shell: 'POSIX shell or Windows cmd', wrap: (v, c) => `${v}||${c}` },
  single: { name: "a `'` quote break", shell: 'POSIX shell', wrap: (v, c) => `${v}';${c};'` },
  double: { name: 'a `"` quote break', shell: 'POSIX shell', wrap: (v, c) => `${v}";${c};"` },
  ampersand: { name: '`&`', shell: 'Windows cmd', wrap: (v, c) => `${v}&${c}&` },
} satisfies Record<string, Form>;

/** The output probes: each runs its forms at once (a clean input costs one request per probe), then alone to confirm. */
const PROBES: { forms: Form[]; payload: (value: string, command: string, header: boolean) => string }[] = [
  {
    // Balanced in every context: unquoted, the quote breaks are two quoted words; inside '…' or "…" one of them
    // closes the quote, runs the command and opens it again.
    forms: [FORMS.substitution, FORMS.backticks, FORMS.newline, FORMS.single, FORMS.double],
    payload: (v, c, header) => `${v}$(${c})\`${c}\`${header ? '' : `\n${c}\n`}';${c};'";${c};"`,
  },
  {
    forms: [FORMS.semicolon, FORMS.pipe, FORMS.and, FORMS.or, FORMS.ampersand],
    payload: (v, c) => `${v};${c}|${c}&&${c}||${c}&${c}&`,
  },
];

/** One wait in unquoted (`;…;`) and double-quoted (`$( )`) contexts: the `#` comments the substitution out of the first. */
const blindPayload = (value: string, command: string): string => `${value};${command};#$(${command})`;

/**
 * Whether the answer shows `marker` printed, not just the payload reflected: an occurrence right after `echo ` or
 * `: ` (the commands that carry it, encoded or not) is the input coming back, not a command's output.
 */
export function printed(response: ProbeResponse, marker: string): boolean {
  const text = `${response.body}\n${Object.values(response.headers).join('\n')}`;
  for (let at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + 1)) {
    if (!/(?:echo|(?:^|\W):)(?:\s|\+|%20|\\u0020|\\t)+$/i.test(text.slice(Math.max(0, at - 16), at))) return true;
  }
  return false;
}

interface Proof {
  issue: string;
  detail: string;
  attempt: ProbeResponse;
  attempts: ProbeResponse[];
}

interface Probing {
  ctx: CheckContext;
  input: OperationInput;
  baseline: ProbeResponse;
  send: (value: string, timeoutMs?: number) => Promise<ProbeResponse>;
  marker: (salt: string) => string;
}

async function outputProof(p: Probing): Promise<Proof | undefined> {
  const value = textOf(p.input);
  const header = p.input.location === 'header';
  for (const [index, probe] of PROBES.entries()) {
    const first = p.marker(`probe-${index}`);
    const payload = probe.payload(value, `echo ${first}`, header);
    if (!canCarry(p.input, payload)) continue;
    const hit = await p.send(payload);
    if (!printed(hit, first) || printed(p.baseline, first)) continue;
    // The same probe printed it: which form alone prints a second marker (and not the first) names the way in.
    const second = p.marker(`confirm-${index}`);
    for (const form of probe.forms) {
      if (form.newline && header) continue;
      const confirmed = await p.send(form.wrap(value, `echo ${second}`));
      if (!printed(confirmed, second) || printed(confirmed, first)) continue;
      // The control: the same form running `:`, which prints nothing — the marker must not show without `echo`.
      const third = p.marker(`control-${index}`);
      const control = await p.send(form.wrap(value, `: ${third}`));
      // The marker shows without `echo` (the server's own command prints its arguments): not this probe's proof.
      if (printed(control, third)) break;
      return {
        issue: OUTPUT,
        detail: `${describeInput(p.input)}: a command after ${form.name} runs (${form.shell}): "echo ${first}" and "echo ${second}" printed their markers; the control ": ${third}" (a command that prints nothing) did not show its marker`,
        attempt: confirmed,
        attempts: [p.baseline, hit, control],
      };
    }
  }
  return undefined;
}

/** A timed send: a request cut at the cap (a hanging target) proves nothing and ends the timing probe. */
function timed(p: Probing, command: string): Promise<ProbeResponse | undefined> {
  return timedAnswer(p.ctx.signal, () => p.send(blindPayload(textOf(p.input), command), SLEEP_CAP_MS));
}

/**
 * The blind probe: `sleep 2`, and with a reachable listener a fetch of the input's first callback URL, in one
 * request (a clean input costs one request for both; the callbacks are awaited once for all inputs, after).
 */
async function blindProbe(p: Probing, listener: CallbackListener | undefined): Promise<ProbeResponse | undefined> {
  const fetch = listener ? `;${fetchCommand(listener.urlFor(callbackTag(p, 'callback-1')))}` : '';
  return timed(p, `sleep 2${fetch}`);
}

/** A blind probe that took two seconds: `sleep 4` must take about two more, and `sleep 0` (the control) not. */
async function delayProof(p: Probing, two: ProbeResponse | undefined): Promise<Proof | undefined> {
  if (p.baseline.durationMs >= 1000) return undefined; // a slow endpoint cannot show a two-second wait
  if (!two || two.durationMs < 2000) return undefined;
  const four = await timed(p, 'sleep 4');
  const none = four && (await timed(p, 'sleep 0'));
  if (!four || !none) return undefined;
  // Proportional to what was asked: 4 s takes about 2 s more than 2 s, and 0 s stays near the baseline.
  if (four.durationMs < 4000 || four.durationMs - two.durationMs < 1500 || none.durationMs >= 1000) return undefined;
  return {
    issue: BLIND,
    detail: `${describeInput(p.input)}: an injected sleep waits as long as asked (POSIX shell, \`;\` or $( )): sleep 2 took ${two.durationMs} ms, sleep 4 ${four.durationMs} ms, sleep 0 (the control) ${none.durationMs} ms, the baseline ${p.baseline.durationMs} ms`,
    attempt: four,
    attempts: [p.baseline, two, none],
  };
}

/** Waits (at most CALLBACK_WAIT_MS, holding no concurrency slot) until one of `tags` was fetched. */
function waitForHit(ctx: CheckContext, listener: CallbackListener, tags: string[]): Promise<boolean> {
  return ctx.idle(listener.waitFor((hit) => tags.includes(hit.tag), CALLBACK_WAIT_MS, ctx.signal));
}

const fetchCommand = (target: string): string => `curl -s -m 3 ${target}||wget -q -T 3 -O- ${target}`;

const callbackTag = (p: Probing, salt: string): string => `cmd-${p.marker(salt)}`;

/** Confirms an input whose first callback probe was fetched: a second callback, then the plain-URL control. */
async function callbackProof(p: Probing, listener: CallbackListener, probe: ProbeResponse): Promise<Proof | undefined> {
  const [second, control] = [callbackTag(p, 'callback-2'), callbackTag(p, 'callback-control')];
  const again = await p.send(blindPayload(textOf(p.input), fetchCommand(listener.urlFor(second))));
  if (!(await waitForHit(p.ctx, listener, [second]))) return undefined;
  // The URL alone, no shell syntax: a server that fetches whatever URL it is given calls back here too.
  const plain = await p.send(listener.urlFor(control));
  if (await waitForHit(p.ctx, listener, [control])) return undefined;
  const hit = listener.hits().find((h) => h.tag === second)!;
  return {
    issue: BLIND,
    detail: `${describeInput(p.input)}: an injected command fetched the scanner's callback twice (${hit.method} ${hit.path}${hit.userAgent ? `, User-Agent ${hit.userAgent}` : ''}), with nothing in the answers; the same URL sent as a plain value was not fetched`,
    attempt: again,
    attempts: [p.baseline, probe, plain],
  };
}

export default defineCheck({
  id: 'injection.command',
  name: 'OS Command Injection',
  issues: [
    {
      id: OUTPUT,
      name: 'OS command injection (the output is in the answer)',
      url,
      cvss: { version: 4.0, vector: CRITICAL, score: 9.3 },
      classifications,
    },
    {
      id: BLIND,
      name: 'Blind OS command injection (a delay or a callback)',
      url,
      cvss: { version: 4.0, vector: CRITICAL, score: 9.3 },
      classifications,
    },
  ],
  rerunsAsRaised: true,
  options: [CALLBACK_HOST],
  // Sleeps of 2 and 4 s on a few inputs: more than the usual budget.
  timeoutMs: 120_000,
  appliesTo: (operation) => injectionTargetsRefusal(operation) ?? true,
  async run(ctx) {
    const host = callbackHostOption(ctx.options);
    const reachable = host !== undefined || isLoopback(ctx.operation.url);
    const baseline = await ctx.http.send();
    const listener = reachable ? await listenForCallbacks({ host }) : undefined;
    const probing = (input: OperationInput): Probing => ({
      ctx,
      input,
      baseline,
      send: (value, timeoutMs) =>
        ctx.http.send({ ...withInput(ctx.operation, input, value), ...(timeoutMs ? { timeoutMs } : {}) }),
      marker: (salt) => `gh${payloadNumber(ctx.operation.id, describeInput(input), salt, 10_000_000, 99_999_999)}x`,
    });
    const report = (proof: Proof): void =>
      ctx.report(proof.issue, { detail: proof.detail, attempt: proof.attempt, attempts: proof.attempts });
    try {
      const inputs = injectionTargets(ctx.operation).map(probing);
      const blind = new Map<Probing, ProbeResponse | undefined>();
      for (const p of inputs) {
        const output = await outputProof(p);
        if (output) return report(output);
        blind.set(p, await blindProbe(p, listener));
        const delayed = await delayProof(p, blind.get(p));
        if (delayed) return report(delayed);
      }
      if (!listener) return;
      // Callbacks may come after the answer (a queued job): one wait for every input's first callback.
      await waitForHit(
        ctx,
        listener,
        inputs.map((p) => callbackTag(p, 'callback-1')),
      );
      for (const [p, probe] of blind) {
        if (!probe || !listener.hits().some((h) => h.tag === callbackTag(p, 'callback-1'))) continue;
        const proof = await callbackProof(p, listener, probe);
        if (proof) return report(proof);
      }
    } finally {
      await listener?.close();
    }
  },
});
