/**
 * discover.discoverable_openapi — an OpenAPI/Swagger description or UI is published at a well-known path (Info).
 * Requests: 1 control + one GET per path below, without credential. Verdict: failed when any path is a hit: a 200
 * whose body is an OpenAPI/Swagger document (JSON or YAML with an `openapi`/`swagger` key) or a Swagger UI / ReDoc
 * page. Publishes the fact `urls`.
 * Differs from VulnAPI (docs/architecture.md §R.13 #16): our own 30-path list, and the body must be plausible, not only the
 * status.
 */
import type { ProbeResponse } from '../scanner/api.js';
import { isHtml, jsonObject, type PathProbe } from './support/probe-paths.js';
import { definePathProbeCheck } from './support/path-probe-check.js';

function isDescription(r: ProbeResponse): boolean {
  const json = jsonObject(r.body);
  if (json) return typeof json.openapi === 'string' || typeof json.swagger === 'string';
  return /^\s*(openapi|swagger)\s*:\s*["']?\d/m.test(r.body) && /^\s*(paths|info)\s*:/m.test(r.body);
}

const isDocsPage = (r: ProbeResponse): boolean => isHtml(r) && /swagger-ui|redoc|rapi-doc|scalar/i.test(r.body);
const plausible = (r: ProbeResponse): boolean => isDescription(r) || isDocsPage(r);

const PATHS = [
  'openapi.json',
  'openapi.yaml',
  'openapi.yml',
  'openapi',
  'swagger.json',
  'swagger.yaml',
  'swagger.yml',
  'api-docs',
  'api-docs/swagger.json',
  'v2/api-docs',
  'v3/api-docs',
  'swagger-ui.html',
  'swagger-ui/',
  'swagger/',
  'swagger/index.html',
  'swagger/v1/swagger.json',
  'docs',
  'redoc',
  'api/openapi.json',
  'api/openapi.yaml',
  'api/swagger.json',
  'api/docs',
  'api/api-docs',
  'api/v1/openapi.json',
  'api/v1/swagger.json',
  'api/v2/swagger.json',
  'v1/openapi.json',
  'v1/swagger.json',
  '.well-known/openapi.json',
  '.well-known/openapi.yaml',
];
const PROBES: PathProbe[] = PATHS.map((path) => ({ path, plausible }));

export default definePathProbeCheck({
  id: 'discover.discoverable_openapi',
  name: 'Discoverable OpenAPI',
  issue: {
    id: 'discover.discoverable_openapi',
    name: 'Discoverable OpenAPI Path',
    owasp: 'API9:2023 Improper Inventory Management',
  },
  probes: PROBES,
});
