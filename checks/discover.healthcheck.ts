/**
 * discover.healthcheck — health / readiness endpoints are reachable without credential (Info).
 * Requests: 1 control + one GET per path below, without credential. Verdict: failed when any path is a hit: a 200
 * whose body looks like a health answer: empty (liveness probes), JSON with a `status`/`healthy`/`ok` member, or a
 * short text such as OK, UP, healthy, alive, pong. Publishes the fact `urls`.
 * Differs from VulnAPI (docs/architecture.md §R.13 #20): our own list, and the body must look like a health answer.
 */
import type { ProbeResponse } from '../scanner/api.js';
import { isHtml, jsonObject, type PathProbe } from './support/probe-paths.js';
import { definePathProbeCheck } from './support/path-probe-check.js';

function plausible(r: ProbeResponse): boolean {
  // Kubernetes-style probes often answer 200 with no body at all; a catch-all answering every path that way is
  // ruled out by probePaths' control request (same body as a random path).
  if (r.body.trim() === '') return true;
  const json = jsonObject(r.body);
  if (json) return ['status', 'healthy', 'ok', 'health', 'checks'].some((k) => k in json);
  return (
    !isHtml(r) &&
    r.body.length <= 200 &&
    /^\s*"?(ok|up|healthy|alive|live|ready|pong|pass|running|green)\b/i.test(r.body)
  );
}

const PATHS = [
  'health',
  'healthz',
  'healthcheck',
  'health-check',
  'health/live',
  'health/ready',
  'health/liveness',
  'health/readiness',
  'health/started',
  'health/startup',
  'healthz/live',
  'healthz/ready',
  'livez',
  'readyz',
  'alive',
  'ready',
  'ping',
  'status',
  'status/live',
  'status/ready',
  '_health',
  'actuator/health',
  'api/health',
  'api/healthz',
  'api/status',
  'api/ping',
  'v1/health',
];
const PROBES: PathProbe[] = PATHS.map((path) => ({ path, plausible }));

export default definePathProbeCheck({
  id: 'discover.healthcheck',
  name: 'Discoverable healthcheck endpoint',
  issue: {
    id: 'discover.discoverable_healthcheck',
    name: 'Discoverable healthcheck endpoint',
    owasp: 'API9:2023 Improper Inventory Management',
  },
  probes: PROBES,
});
