/**
 * misconfiguration.http_track — the server answers the TRACK method (cross-site tracing: the echo reveals headers such as
 * cookies and Authorization to scripts). Request: 1, the operation with method TRACK and a random marker header.
 * Verdict: failed when the answer is 200 and echoes the request (`message/http`, a body starting with "TRACK ", or the
 * marker in the body).
 * Fixes VulnAPI: a catch-all 200 without an echo is not "TRACK enabled"; method-override headers set by
 * misconfiguration.http_method_override never reach this request (docs/architecture.md §R.15 #8) — headers are per request here.
 */
import { defineEchoedMethodCheck } from './support/echoed-method-check.js';

export default defineEchoedMethodCheck({
  id: 'misconfiguration.http_track',
  name: 'HTTP TRACK Method Misconfiguration',
  method: 'TRACK',
  issue: {
    id: 'security_misconfiguration.http_track_method_enabled',
    name: 'HTTP TRACK Method enabled',
    url: 'https://techcommunity.microsoft.com/t5/iis-support-blog/http-track-and-trace-verbs/ba-p/784482',
  },
});
