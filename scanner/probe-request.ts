/**
 * Turns an operation plus a check's `ProbeRequest` into the request on the wire. Each probe starts from the operation
 * afresh, so headers one check adds (method-override headers…) never leak into another check's requests. Places the
 * credential where it travels: a header, a query parameter, a cookie, or a property of the JSON body.
 */
import type { Credential, Operation, ProbeRequest } from './api.js';
import type { WireRequest } from './http.js';

const DEFAULT_USER_AGENT = 'gatehouse-scanner/0.1';

type Headers = Record<string, string | string[]>;

function setHeader(headers: Headers, name: string, value: string | string[] | null): void {
  const lower = name.toLowerCase();
  // Header names are case-insensitive: the record is edited in place, dropping the header under any letter case.
  // eslint-disable-next-line @typescript-eslint/no-dynamic-delete
  for (const existing of Object.keys(headers)) if (existing.toLowerCase() === lower) delete headers[existing];
  if (value !== null) headers[name] = value;
}

function getHeader(headers: Headers, name: string): string | string[] | undefined {
  const lower = name.toLowerCase();
  const key = Object.keys(headers).find((k) => k.toLowerCase() === lower);
  return key === undefined ? undefined : headers[key];
}

/** The header value a credential is sent as (`Bearer <v>`, `Basic <v>`, or the bare value for API keys). */
function credentialHeaderValue(credential: Credential, value: string): string {
  if (credential.type === 'http' && credential.scheme === 'bearer') return `Bearer ${value}`;
  if (credential.type === 'http' && credential.scheme === 'basic') return `Basic ${value}`;
  if (credential.type === 'oauth2' || credential.type === 'openIdConnect') return `Bearer ${value}`;
  return value;
}

type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A JSON body with `value` at `pointer` (`null`: the property removed). A body that is not a JSON object, or whose
 * pointer crosses something that is not an object, is sent unchanged: there is no place for the credential in it.
 */
function placeInBody(body: string | undefined, pointer: readonly string[], value: string | null): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body ?? '');
  } catch {
    return body;
  }
  if (!isObject(parsed) || pointer.length === 0) return body;
  let node: JsonObject = parsed;
  for (const key of pointer.slice(0, -1)) {
    if (node[key] === undefined && value !== null) node[key] = {};
    if (!isObject(node[key])) return body;
    node = node[key];
  }
  const last = pointer[pointer.length - 1];
  // eslint-disable-next-line @typescript-eslint/no-dynamic-delete
  if (value === null) delete node[last];
  else node[last] = value;
  return JSON.stringify(parsed);
}

function cookieHeader(cookies: Record<string, string>): string | undefined {
  const pairs = Object.entries(cookies).map(([name, value]) => `${name}=${value}`);
  return pairs.length > 0 ? pairs.join('; ') : undefined;
}

export function buildWireRequest(operation: Operation, probe: ProbeRequest = {}, signal?: AbortSignal): WireRequest {
  const method = (probe.method ?? operation.method).toUpperCase();
  const url = new URL(probe.url ?? operation.url, operation.url);
  const headers: Headers = {};
  for (const [name, values] of Object.entries(operation.headers))
    headers[name] = values.length === 1 ? values[0] : [...values];
  // A probe's cookies replace the operation's (null drops one); the credential's own cookie is set after them.
  const cookies: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...operation.cookies, ...probe.cookies }))
    if (value !== null) cookies[name] = value;

  const credential = operation.credential;
  // Beside a body credential, the endpoint's own one travels as it is (an attack value goes in the body).
  const placed = credential?.in === 'body' ? credential.with : credential;
  if (placed && placed.in !== 'body' && probe.credential !== null) {
    const value = placed === credential ? (probe.credential ?? placed.value) : placed.value;
    if (placed.in === 'header') setHeader(headers, placed.name, credentialHeaderValue(placed, value));
    else if (placed.in === 'query') url.searchParams.set(placed.name, value);
    else cookies[placed.name] = value;
  }
  const cookie = cookieHeader(cookies);
  if (cookie && getHeader(headers, 'cookie') === undefined) setHeader(headers, 'Cookie', cookie);
  if (getHeader(headers, 'user-agent') === undefined) setHeader(headers, 'User-Agent', DEFAULT_USER_AGENT);
  for (const [name, value] of Object.entries(probe.headers ?? {})) setHeader(headers, name, value);

  // A HEAD request has no content (RFC 9110 §9.3.2); got refuses to send one.
  let body = probe.body === null || method === 'HEAD' ? undefined : (probe.body ?? operation.body);
  // A body credential is in the operation's body already: only an attack value or its removal changes the body.
  if (credential?.in === 'body' && credential.pointer && probe.credential !== undefined && body !== undefined)
    body = placeInBody(body, credential.pointer, probe.credential);
  // A per-request cap aborts like the scan's own signal does: the attempt records the error.
  const capped =
    probe.timeoutMs !== undefined
      ? AbortSignal.any([AbortSignal.timeout(probe.timeoutMs), ...(signal ? [signal] : [])])
      : signal;
  return { method, url: url.href, headers, body, followRedirects: probe.followRedirects, signal: capped, operation };
}
