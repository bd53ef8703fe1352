/**
 * misconfiguration.http_trace — the server answers the TRACE method (cross-site tracing: the echo reveals headers such as
 * cookies and Authorization to scripts). Request: 1, the operation with method TRACE and a random marker header.
 * Verdict: failed when the answer is 200 and echoes the request (`message/http`, a body starting with "TRACE ", or the
 * marker in the body).
 * Fixes VulnAPI: a catch-all 200 without an echo is not "TRACE enabled"; method-override headers set by
 * misconfiguration.http_method_override never reach this request (research §1.5 #8) — headers are per request here.
 */
import { randomBytes } from 'node:crypto';
import { defineCheck } from '../scanner/api.js';
import { onGraphqlEndpointOnly } from './support/graphql-answer.js';
import { echoesRequest } from './support/echoed-method.js';
import { probeUntilShownClear } from './support/probe-until-shown-clear.js';

const ISSUE = 'security_misconfiguration.http_trace_method_enabled';
const METHOD = 'TRACE';

export default defineCheck({
  id: 'misconfiguration.http_trace',
  name: 'HTTP TRACE Method Misconfiguration',
  issues: [
    {
      id: ISSUE,
      name: 'HTTP TRACE Method enabled',
      url: 'https://developer.mozilla.org/en-US/docs/Web/HTTP/Methods/TRACE',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:A/VC:N/VI:N/VA:N/SC:N/SI:N/SA:N', score: 0 },
      classifications: { owasp: 'API8:2023 Security Misconfiguration', cwe: 'CWE-489: Active Debug Code' },
    },
  ],
  maxCvss: 0,
  scanKinds: ['curl', 'openapi', 'graphql'],
  appliesTo: onGraphqlEndpointOnly,
  async run(ctx) {
    // Every operation of a path sends the same request (GET /items and POST /items): once the first showed no echo, the
    // others pass without sending it again; an echo is probed (and reported) on each, so shards and runs agree.
    const path = new URL(ctx.operation.url).pathname;
    const safeOn = await probeUntilShownClear(ctx, path, async () => {
      const marker = randomBytes(8).toString('hex');
      const response = await ctx.http.send({ method: METHOD, body: null, headers: { 'x-gatehouse-trace': marker } });
      const echoed = echoesRequest(response, METHOD, marker);
      if (echoed) ctx.report(ISSUE, { detail: `${METHOD} answered 200 and echoed the request`, attempt: response });
      return !echoed;
    });
    if (safeOn) ctx.log.debug(`${METHOD} ${path} does not echo (probed on ${safeOn})`);
  },
});
