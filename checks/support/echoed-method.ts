/**
 * Tells a real TRACE/TRACK echo (RFC 9110 §9.3.8: the body is the request as received, `message/http`) from a
 * catch-all route that answers 200 to any method.
 */
import type { ProbeResponse } from '../../scanner/api.js';

export function echoesRequest(response: ProbeResponse, method: string, marker: string): boolean {
  if (response.status !== 200) return false;
  const type = (response.headers['content-type'] ?? '').toLowerCase();
  return type.startsWith('message/http') || response.body.startsWith(`${method} `) || response.body.includes(marker);
}
