/**
 * misconfiguration.http_method_override — the server lets a header or query parameter override the HTTP method,
 * and (worse) an overridden request skips authentication.
 *
 * Requests (1–14): 1) the operation as given (a 405 → skipped); 2) GET, HEAD, POST, PUT, PATCH except its own
 * method, until one answers 405 (else the first whose status differs; none differs → passed, nothing to observe);
 * 3) that method M with X-HTTP-Method-Override / X-HTTP-Method / X-Method-Override = own method, then with query
 * `_method`, `method`, `httpMethod`, `_httpMethod`, until one answers with the baseline status; 4) with a credential
 * and an honoured override: the plain request without credential, then the honoured override without credential.
 * Verdict: allow_override (Info) fails when an override is honoured; the bypass (8.8) fails when the plain request
 * without credential is rejected but the overridden one without credential is not.
 * Fixes VulnAPI (docs/architecture.md §R.13 #12, §R.15 #8): override headers are set per request, never on the shared operation,
 * so they neither accumulate nor leak into TRACE/TRACK; header names are tried once each (they are case-insensitive);
 * a public endpoint is not a "bypass".
 */
import {
  defineCheck,
  operationClass,
  type CheckContext,
  type ProbeRequest,
  type ProbeResponse,
} from '../scanner/api.js';
import { onGraphqlEndpointOnly } from './support/graphql-answer.js';
import { looksRejected } from './support/auth-baseline-facts.js';
import { probeUntilShownClear } from './support/probe-until-shown-clear.js';

const ALLOW_OVERRIDE = 'security_misconfiguration.http_method_allow_override';
const AUTH_BYPASS = 'security_misconfiguration.http_method_override_authentication_bypass';
const DOC =
  'https://www.cerberauth.com/docs/vulnapi/vulnerabilities/security-misconfiguration/http-method-allow-override?utm_source=vulnapi-report';
/** Never DELETE: probing another method must not delete what the operation names (the send gate refuses it anyway). */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH'];
const OVERRIDE_HEADERS = ['X-HTTP-Method-Override', 'X-HTTP-Method', 'X-Method-Override'];
const OVERRIDE_PARAMS = ['_method', 'method', 'httpMethod', '_httpMethod'];

export default defineCheck({
  id: 'misconfiguration.http_method_override',
  name: 'HTTP Method Override Misconfiguration',
  issues: [
    {
      id: ALLOW_OVERRIDE,
      name: 'Possible HTTP Method Override detected',
      url: DOC,
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:A/VC:N/VI:N/VA:N/SC:N/SI:N/SA:N', score: 0 },
      classifications: { owasp: 'API8:2023 Security Misconfiguration', cwe: 'CWE-16: Configuration' },
    },
    {
      id: AUTH_BYPASS,
      name: 'Possible HTTP Method Override with authentication bypass detected',
      url: DOC,
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:L/VA:N/SC:N/SI:N/SA:N', score: 8.8 },
      classifications: { owasp: 'API8:2023 Security Misconfiguration', cwe: 'CWE-287: Improper Authentication' },
    },
  ],
  // Its baseline is the operation itself: on a destructive one that is the request the scan must not send.
  appliesTo: (operation) =>
    operationClass(operation) === 'destructive'
      ? 'destructive operation: its own request would be the baseline'
      : onGraphqlEndpointOnly(operation),
  async run(ctx) {
    // Overrides are honoured by a framework's middleware, not per route: once one operation of the origin showed that
    // none is honoured, the others pass without probing (9 requests each saved); any other outcome probes each one, so
    // findings and statuses do not depend on which operation came first (shards, concurrency).
    const origin = new URL(ctx.operation.url).origin;
    const provenOn = await probeUntilShownClear(ctx, origin, () => probeOverrides(ctx));
    if (provenOn) ctx.log.debug(`no method override is honoured on ${origin} (probed on ${provenOn})`);
  },
});

/** Probes one operation; true when overrides could be observed and none was honoured. */
async function probeOverrides(ctx: CheckContext<Record<string, never>>): Promise<boolean> {
  {
    const own = ctx.operation.method.toUpperCase();
    const baseline = await ctx.http.send();
    if (baseline.status === 405) ctx.skip(`the operation answers 405 to its own method ${own}`);

    let other: { method: string; response: ProbeResponse } | undefined;
    for (const method of METHODS.filter((m) => m !== own)) {
      const response = await ctx.http.send({ method });
      if (response.status === 405) {
        other = { method, response };
        break;
      }
      if (!other && response.status !== baseline.status) other = { method, response };
    }
    if (!other) {
      ctx.log.debug(`every method answers ${baseline.status}: an override cannot be observed`);
      return false;
    }
    const probe = other;

    const attempts: { how: string; request: ProbeRequest }[] = [
      ...OVERRIDE_HEADERS.map((header) => ({
        how: `header ${header}`,
        request: { method: probe.method, headers: { [header]: own } },
      })),
      ...OVERRIDE_PARAMS.map((param) => {
        const url = new URL(ctx.operation.url);
        url.searchParams.set(param, own);
        return { how: `query parameter ${param}`, request: { method: probe.method, url: url.href } };
      }),
    ];
    let honoured: { how: string; request: ProbeRequest; response: ProbeResponse } | undefined;
    for (const attempt of attempts) {
      const response = await ctx.http.send(attempt.request);
      if (response.status === baseline.status) {
        honoured = { ...attempt, response };
        break;
      }
    }
    if (!honoured) return true;
    ctx.report(ALLOW_OVERRIDE, {
      detail: `${probe.method} answers ${probe.response.status}, ${probe.method} with ${honoured.how}=${own} answers ${honoured.response.status} like ${own}`,
      attempt: honoured.response,
    });

    if (!ctx.operation.credential) return false;
    const plainWithout = await ctx.http.send({ credential: null });
    if (!looksRejected(plainWithout.status, baseline.status)) {
      ctx.log.debug(`${own} without credential already answers ${plainWithout.status}: nothing to bypass`);
      return false;
    }
    const overriddenWithout = await ctx.http.send({ ...honoured.request, credential: null });
    if (!looksRejected(overriddenWithout.status, baseline.status)) {
      ctx.report(AUTH_BYPASS, {
        detail: `${own} without credential answers ${plainWithout.status}, but ${probe.method} with ${honoured.how}=${own} without credential answers ${overriddenWithout.status}`,
        attempt: overriddenWithout,
      });
    }
    return false;
  }
}
