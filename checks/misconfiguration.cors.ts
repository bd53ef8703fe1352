/**
 * misconfiguration.cors — the endpoint trusts any Origin for credentialed cross-origin reads: it reflects the request's
 * Origin (or allows `null`) in Access-Control-Allow-Origin together with `Access-Control-Allow-Credentials: true`, so a
 * script on any site (or a sandboxed iframe, for `null`) reads responses made with the victim's cookies or
 * HTTP authentication (Fetch Standard §3.2.5, CORS protocol; PortSwigger "CORS origin reflection").
 *
 * Requests: 2, the operation as given plus an `Origin` header: 1) a random origin under `.invalid` (RFC 6761 §6.4: no
 * legitimate allowlist contains it), 2) `Origin: null` — once per origin and path mount (a read operation first): the
 * other operations there pass as covered by that one unless it failed (`--per-operation` sends them everywhere).
 * Verdict: failed for an origin when the answer's Access-Control-Allow-Origin equals that origin exactly and
 * Access-Control-Allow-Credentials is `true` (ASCII case-insensitive, as browsers compare it). A wildcard `*` is not
 * this issue (browsers refuse `*` with credentials; misconfiguration.http_headers reports it as Info); no CORS header at
 * all is the secure same-origin default and passes.
 */
import { randomBytes } from 'node:crypto';
import { defineCheck, type ProbeResponse } from '../scanner/api.js';
import { onGraphqlEndpointOnly } from './support/graphql-answer.js';
import { pathMount } from './support/path-mount.js';

const REFLECTED = 'security_misconfiguration.cors_origin_reflected';
const NULL_ORIGIN = 'security_misconfiguration.cors_null_origin_allowed';
const VECTOR = 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:P/VC:H/VI:N/VA:N/SC:N/SI:N/SA:N';
const CLASSIFICATIONS = {
  owasp: 'API8:2023 Security Misconfiguration',
  cwe: 'CWE-942: Permissive Cross-domain Policy with Untrusted Domains',
};
const URL_DOC = 'https://developer.mozilla.org/en-US/docs/Web/HTTP/CORS';

function allowsWithCredentials(response: ProbeResponse, origin: string): boolean {
  const allowOrigin = response.headers['access-control-allow-origin']?.trim();
  const credentials = response.headers['access-control-allow-credentials']?.trim().toLowerCase();
  return allowOrigin === origin && credentials === 'true';
}

export default defineCheck({
  id: 'misconfiguration.cors',
  name: 'CORS Misconfiguration',
  issues: [
    {
      id: REFLECTED,
      name: 'CORS reflects any Origin with credentials',
      url: URL_DOC,
      cvss: { version: 4.0, vector: VECTOR, score: 7.1 },
      classifications: CLASSIFICATIONS,
    },
    {
      id: NULL_ORIGIN,
      name: 'CORS allows the null Origin with credentials',
      url: URL_DOC,
      cvss: { version: 4.0, vector: VECTOR, score: 7.1 },
      classifications: CLASSIFICATIONS,
    },
  ],
  appliesTo: onGraphqlEndpointOnly,
  // A CORS policy is middleware an API sets up for all of it or per mounted sub-API, not per operation.
  sharedVerdict: { subject: 'CORS policy (origin and path mount)', key: pathMount },
  async run(ctx) {
    const origin = `https://${randomBytes(6).toString('hex')}.gatehouse-scanner.invalid`;
    const reflected = await ctx.http.send({ headers: { Origin: origin } });
    if (allowsWithCredentials(reflected, origin)) {
      ctx.report(REFLECTED, {
        detail: `Access-Control-Allow-Origin echoes ${origin} with Access-Control-Allow-Credentials: true`,
        attempt: reflected,
      });
    }
    const nullOrigin = await ctx.http.send({ headers: { Origin: 'null' } });
    if (allowsWithCredentials(nullOrigin, 'null')) {
      ctx.report(NULL_ORIGIN, {
        detail: 'Access-Control-Allow-Origin: null with Access-Control-Allow-Credentials: true',
        attempt: nullOrigin,
      });
    }
  },
});
