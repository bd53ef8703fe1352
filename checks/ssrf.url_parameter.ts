/**
 * ssrf.url_parameter — server-side request forgery (OWASP API7:2023): an input the server fetches is pointed at the
 * scanner's own loopback callback (checks/support/callback-server.ts), and the target fetching it is the proof.
 * URL-shaped inputs: declared `format: uri`/`url`, names like url, uri, callback, webhook, image, avatar, redirect,
 * link, feed, icon, logo or photo, and (curl scans) values that are http(s) URLs. At most four inputs, each given its
 * own unique callback path so the hit names the input. A URL split into inputs (`host` with `port` and/or `path`,
 * as GraphQL arguments often are) gets the callback's host, port and path.
 *
 * Requests: 1, the operation as given with every URL-shaped input set to its callback URL; then up to 1 s waiting for
 * the target to call back (webhooks and image imports often fetch after answering). Never on destructive operations.
 * Verdict: failed when the callback receives a request on a path the scan handed out (the input named in the detail;
 * the request the target made is in the detail too). Passed when nothing calls back. Skipped without URL-shaped inputs,
 * and for targets that cannot reach this machine's loopback interface unless `--callback-host` names an address they
 * can reach. A write that stored the URL keeps it: the detail says which field to restore.
 */
import {
  operationClass,
  defineCheck,
  describeInput,
  operationInputs,
  withInputs,
  type InputChange,
  type OperationInput,
} from '../scanner/api.js';
import { callbackHostOption, isLoopback, listenForCallbacks } from './support/callback-server.js';
import { CALLBACK_HOST } from './support/shared-options.js';

const ISSUE = 'server_side_request_forgery.url_parameter';
const URL_NAME =
  /(^|[_-]|[a-z](?=[A-Z]))(url|uri|href|link|callback|webhook|hook|image|img|avatar|picture|photo|icon|logo|redirect|return|next|feed|endpoint|target|dest|destination|src|source|fetch)($|[_-]|[A-Z])/i;
const MAX_FIELDS = 4;
const WAIT_MS = 1000;

/** Inputs the server may fetch: declared as URIs, named like URLs, or carrying an http(s) URL. */
export function urlShaped(input: OperationInput): boolean {
  const format = input.format;
  if (format === 'uri' || format === 'url' || format === 'uri-reference') return true;
  if (input.type !== undefined && input.type !== 'string') return false;
  if (typeof input.example === 'string' && /^https?:\/\//i.test(input.example)) return true;
  return (input.example === undefined || typeof input.example === 'string') && URL_NAME.test(input.name);
}

const HOST_NAME = /^(host|hostname|server|domain|address|target_?host)$/i;
const PORT_NAME = /^(port|target_?port)$/i;
const PATH_NAME = /^(path|pathname|resource|endpoint_?path)$/i;

/** A URL split into inputs (`host`, and `port` and/or `path`): the server builds the URL it fetches from them. */
export function splitUrlInputs(
  inputs: OperationInput[],
): { host: OperationInput; port?: OperationInput; path?: OperationInput } | undefined {
  const strings = inputs.filter((i) => i.type === undefined || i.type === 'string');
  const host = strings.find((i) => HOST_NAME.test(i.name));
  const port = inputs.find((i) => PORT_NAME.test(i.name));
  const path = strings.find((i) => PATH_NAME.test(i.name));
  return host && (port || path) ? { host, ...(port ? { port } : {}), ...(path ? { path } : {}) } : undefined;
}

export default defineCheck({
  id: 'ssrf.url_parameter',
  name: 'Server-Side Request Forgery (URL parameter)',
  issues: [
    {
      id: ISSUE,
      name: 'The server fetches a URL the client supplies',
      url: 'https://owasp.org/API-Security/editions/2023/en/0xa7-server-side-request-forgery/',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:N/VI:N/VA:N/SC:H/SI:N/SA:N', score: 7.7 },
      classifications: {
        owasp: 'API7:2023 Server Side Request Forgery',
        cwe: 'CWE-918: Server-Side Request Forgery (SSRF)',
      },
    },
  ],
  rerunsAsRaised: true,
  options: [CALLBACK_HOST],
  appliesTo: (operation) => {
    if (operationClass(operation) === 'destructive') return 'destructive operation: never sent at defaults';
    const inputs = operationInputs(operation);
    return inputs.some(urlShaped) || splitUrlInputs(inputs)
      ? true
      : 'no URL-shaped input (format uri, a url/callback/webhook/image-like name, a URL value, or host with port or path)';
  },
  async run(ctx) {
    const host = callbackHostOption(ctx.options);
    if (!host && !isLoopback(ctx.operation.url))
      return ctx.skip(
        'the target cannot reach a loopback callback (give --callback-host with an address of this machine it can reach)',
      );
    const inputs = operationInputs(ctx.operation).filter(urlShaped).slice(0, MAX_FIELDS);
    const listener = await listenForCallbacks({ host });
    try {
      // The callback path names the input (`query-url`, `body-profile.avatar`), so the hit says which one was fetched.
      const tagOf = (input: OperationInput): string => describeInput(input).replace(' ', '-');
      const changes: InputChange[] = inputs.map((input) => ({ input, value: listener.urlFor(tagOf(input)) }));
      // Host, port and path inputs get the callback's parts (an integer port where the input is one).
      const split = splitUrlInputs(operationInputs(ctx.operation));
      if (split) {
        const target = new URL(listener.urlFor(tagOf(split.host)));
        changes.push({ input: split.host, value: target.hostname });
        if (split.port)
          changes.push({ input: split.port, value: split.port.type === 'integer' ? Number(target.port) : target.port });
        if (split.path) changes.push({ input: split.path, value: target.pathname });
      }
      const response = await ctx.http.send(withInputs(ctx.operation, changes));
      await ctx.idle(listener.waitFor(() => true, WAIT_MS, ctx.signal));
      const hits = listener.hits();
      if (hits.length === 0) return;
      const names = [...new Set(hits.map((h) => h.tag))];
      const first = hits[0];
      const stored = ctx.operation.method === 'GET' ? '' : ` If the operation stored it, restore ${names.join(', ')}.`;
      ctx.report(ISSUE, {
        detail: `the target fetched the scanner's callback given in ${names.join(', ')} (${first.method} ${first.path}${first.userAgent ? `, User-Agent ${first.userAgent}` : ''}; answer to the scan: ${response.status}).${stored}`,
        attempt: response,
      });
      ctx.setFact('callbacks', hits);
    } finally {
      await listener.close();
    }
  },
});
