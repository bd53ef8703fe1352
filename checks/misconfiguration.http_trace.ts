/**
 * misconfiguration.http_trace — the server answers the TRACE method (cross-site tracing: the echo reveals headers such as
 * cookies and Authorization to scripts). Request: 1, the operation with method TRACE and a random marker header.
 * Verdict: failed when the answer is 200 and echoes the request (`message/http`, a body starting with "TRACE ", or the
 * marker in the body).
 * Fixes VulnAPI: a catch-all 200 without an echo is not "TRACE enabled"; method-override headers set by
 * misconfiguration.http_method_override never reach this request (docs/architecture.md §R.15 #8) — headers are per request here.
 */
import { defineEchoedMethodCheck } from './support/echoed-method-check.js';

export default defineEchoedMethodCheck({
  id: 'misconfiguration.http_trace',
  name: 'HTTP TRACE Method Misconfiguration',
  method: 'TRACE',
  issue: {
    id: 'security_misconfiguration.http_trace_method_enabled',
    name: 'HTTP TRACE Method enabled',
    url: 'https://developer.mozilla.org/en-US/docs/Web/HTTP/Methods/TRACE',
  },
});
