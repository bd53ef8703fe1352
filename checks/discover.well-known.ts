/**
 * discover.well-known — well-known URIs (RFC 8615) that describe the service are published (Info).
 * Requests: 1 control + one GET per path below, without credential. Verdict: failed when any path is a hit: a 200
 * whose body has the format the path's specification defines. Publishes the fact `urls`.
 * Differs from VulnAPI (docs/architecture.md §R.13 #19): the body must match the format, not only the status.
 */
import type { ProbeResponse } from '../scanner/api.js';
import { jsonObject, jsonWith, textLike, type PathProbe } from './support/probe-paths.js';
import { definePathProbeCheck } from './support/path-probe-check.js';

const jwks = (r: ProbeResponse): boolean => Array.isArray(jsonObject(r.body)?.keys);
const jsonArray = (r: ProbeResponse): boolean =>
  /^\s*\[/.test(r.body) &&
  (() => {
    try {
      return Array.isArray(JSON.parse(r.body));
    } catch {
      return false;
    }
  })();

const PROBES: PathProbe[] = [
  { path: '.well-known/security.txt', plausible: textLike(/^(Contact|Expires):/im) }, // RFC 9116
  { path: 'security.txt', plausible: textLike(/^(Contact|Expires):/im) },
  { path: '.well-known/openid-configuration', plausible: jsonWith('issuer') }, // OpenID Connect Discovery 1.0 §4
  { path: '.well-known/oauth-authorization-server', plausible: jsonWith('issuer') }, // RFC 8414
  { path: '.well-known/oauth-protected-resource', plausible: jsonWith('resource') }, // RFC 9728
  { path: '.well-known/jwks.json', plausible: jwks }, // RFC 7517 §5
  { path: 'jwks.json', plausible: jwks },
  { path: '.well-known/openid-federation', plausible: textLike(/^eyJ[\w-]*\.[\w-]+\.[\w-]*$/) }, // signed entity statement
  {
    path: '.well-known/apple-app-site-association',
    plausible: (r) => jsonObject(r.body) !== undefined && /applinks|webcredentials|appclips/.test(r.body),
  },
  { path: '.well-known/assetlinks.json', plausible: jsonArray },
];

export default definePathProbeCheck({
  id: 'discover.well-known',
  name: 'Discoverable well-known path',
  issue: {
    id: 'discover.discoverable_well_known',
    name: 'Discoverable well-known path',
    owasp: 'API9:2023 Improper Inventory Management',
  },
  probes: PROBES,
});
