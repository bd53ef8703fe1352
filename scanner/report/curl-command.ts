/**
 * A `curl` command that sends a recorded request again, for a report's evidence: method, URL, headers and body, each
 * quoted for a POSIX shell. Credentials were redacted when the attempt was recorded (scanner/secrets.ts); each
 * `[redacted]` becomes `$TOKEN`, left for the shell to expand, so the command carries no secret and runs once
 * `TOKEN` is set.
 */
const REDACTED = '[redacted]';

/** Single-quoted, unless it holds a redacted credential: then double-quoted with `$TOKEN` left to expand. */
function quote(text: string): string {
  if (!text.includes(REDACTED)) return `'${text.replaceAll("'", `'\\''`)}'`;
  const escaped = text.replace(/[\\"$`]/g, (ch) => `\\${ch}`);
  return `"${escaped.replaceAll(REDACTED, '$TOKEN')}"`;
}

/** Headers curl sets itself or that describe the recorded connection, not the request. */
const OMITTED = new Set(['content-length', 'host', 'connection', 'accept-encoding', 'transfer-encoding']);

export function curlCommand(request: {
  method: string;
  url: string;
  headers: Readonly<Record<string, string>>;
  body?: string;
}): string {
  const parts = ['curl'];
  if (request.method === 'HEAD') parts.push('--head');
  else if (request.method !== 'GET' || request.body !== undefined) parts.push('-X', request.method);
  for (const [name, value] of Object.entries(request.headers)) {
    if (OMITTED.has(name.toLowerCase())) continue;
    parts.push('-H', quote(`${name}: ${value}`));
  }
  if (request.body !== undefined) parts.push('--data-raw', quote(request.body));
  parts.push(quote(request.url));
  return parts.join(' ');
}
