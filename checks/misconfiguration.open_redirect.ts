/**
 * misconfiguration.open_redirect — an input that says where to go next sends the client to any host (CWE-601): a
 * link on the API's own origin that lands on an attacker's page (phishing, OAuth code and token theft).
 * Redirect-like inputs: names such as redirect, redirect_uri, next, return, return_url, returnTo, continue, callback,
 * goto, dest, destination, forward, target or success_url, and inputs of those names declared `format: uri`.
 * Read operations and POSTs; never a destructive operation.
 *
 * Requests per input (redirects are never followed; nothing is fetched from the foreign host, a reserved `.example`
 * name that resolves nowhere): 1) `https://gatehouse-<n>.example/`, 2) only when that was not followed, the
 * protocol-relative `//gatehouse-<n>.example/` (past checks that look for a scheme); then, to confirm, 3) the same
 * form with another host `gatehouse-<m>.example`.
 * Verdict: `misconfiguration.open_redirect` (5.1) when both hosts are redirected to — a 3xx whose Location (or a
 * `Refresh` header) goes to that host, or a JSON answer whose `location`/`redirect`/`redirectUrl`/`url`/`next` field
 * is that host's URL — and the baseline (the control: the operation as given) is not; every exchange is in the
 * evidence. Passed otherwise; skipped without a redirect-like input.
 */
import {
  defineCheck,
  describeInput,
  payloadRefusal,
  withInput,
  type CheckContext,
  type Operation,
  type OperationInput,
  type ProbeResponse,
} from '../scanner/api.js';
import { injectionTargets } from './support/injection-targets.js';
import { payloadNumber } from './support/payload-numbers.js';

const ISSUE = 'misconfiguration.open_redirect';
const REDIRECT_NAME =
  /(^|[_-]|[a-z](?=[A-Z]))(redirect|redirect_?ur[il]|next|return|return_?to|return_?ur[il]|continue|callback|goto|dest|destination|forward|target|success_?ur[il]|back_?ur[il]|redir)($|[_-]|[A-Z])/i;
const JSON_FIELDS = [
  'location',
  'redirect',
  'redirectUrl',
  'redirect_url',
  'redirectUri',
  'redirect_uri',
  'url',
  'next',
];

export function redirectLike(input: OperationInput): boolean {
  return REDIRECT_NAME.test(input.name);
}

/** Where the answer sends the client: a 3xx Location, a Refresh header, or a JSON field naming the next URL. */
function destination(response: ProbeResponse, base: string): string | undefined {
  const header =
    response.status >= 300 && response.status < 400
      ? response.headers.location
      : /url=(.+)$/i.exec(response.headers.refresh ?? '')?.[1];
  let raw = header;
  if (!raw) {
    try {
      const body = JSON.parse(response.body) as Record<string, unknown>;
      raw = JSON_FIELDS.map((f) => body[f]).find((v): v is string => typeof v === 'string');
    } catch {
      raw = undefined; // not JSON: only headers redirect
    }
  }
  if (!raw) return undefined;
  try {
    return new URL(raw.trim(), base).host;
  } catch {
    return undefined;
  }
}

const FORMS = [
  { name: 'an absolute URL', value: (host: string) => `https://${host}/` },
  { name: 'a protocol-relative URL', value: (host: string) => `//${host}/` },
];

async function probeInput(
  ctx: CheckContext,
  input: OperationInput,
  baseline: ProbeResponse,
): Promise<{ detail: string; attempt: ProbeResponse; attempts: ProbeResponse[] } | undefined> {
  const host = (salt: string): string =>
    `gatehouse-${payloadNumber(ctx.operation.id, describeInput(input), salt, 100_000, 999_999)}.example`;
  const [first, second] = [host('redirect-1'), host('redirect-2')];
  const send = (value: string): Promise<ProbeResponse> =>
    ctx.http.send({ ...withInput(ctx.operation, input, value), followRedirects: false });
  const base = ctx.operation.url;
  if (destination(baseline, base)?.endsWith('.example')) return undefined;
  for (const form of FORMS) {
    const probe = await send(form.value(first));
    if (destination(probe, base) !== first) continue;
    const again = await send(form.value(second));
    if (destination(again, base) !== second) continue;
    const how = again.status >= 300 && again.status < 400 ? `${again.status} to` : 'a JSON answer naming';
    return {
      detail: `${describeInput(input)}: ${form.name} to a foreign host is followed: ${how} https://${first}/ and https://${second}/ for two hosts; the operation as given stays on its origin`,
      attempt: again,
      attempts: [baseline, probe],
    };
  }
  return undefined;
}

const targets = (operation: Operation): OperationInput[] => injectionTargets(operation, redirectLike);

export default defineCheck({
  id: 'misconfiguration.open_redirect',
  name: 'Open Redirect',
  issues: [
    {
      id: ISSUE,
      name: 'Open redirect to a host the client chooses',
      url: 'https://cheatsheetseries.owasp.org/cheatsheets/Unvalidated_Redirects_and_Forwards_Cheat_Sheet.html',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:P/VC:N/VI:N/VA:N/SC:L/SI:L/SA:N', score: 5.1 },
      classifications: {
        owasp: 'API8:2023 Security Misconfiguration',
        cwe: "CWE-601: URL Redirection to Untrusted Site ('Open Redirect')",
      },
    },
  ],
  appliesTo: (operation) =>
    payloadRefusal(operation) ??
    (targets(operation).length > 0
      ? true
      : 'no redirect-like input (redirect, next, return_url, callback, continue, goto…)'),
  async run(ctx) {
    // The operation as given (redirects are followed only with -L): a read's answer is shared with the other checks.
    const baseline = await ctx.http.send();
    for (const input of targets(ctx.operation)) {
      const proof = await probeInput(ctx, input, baseline);
      if (proof) return ctx.report(ISSUE, proof);
    }
  },
});
