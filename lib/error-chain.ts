/**
 * An error and its causes as plain data for a log line: name, message and the fields that say where a connection
 * failed (`code`, `syscall`, `address`, `port`, `hostname`). Logged as is, an Error's own fields are not enumerable
 * and a `cause` came out as `{}` — the `ECONNREFUSED` and the host behind "fetch failed" were lost.
 */

export interface ErrorLink {
  name: string;
  message: string;
  code?: string | number;
  syscall?: string;
  address?: string;
  port?: number;
  hostname?: string;
}

/** Links at most: a cause chain is short; a cycle or a very deep one stops here. */
const MAX_LINKS = 6;

function linkOf(value: unknown): ErrorLink {
  if (!(value instanceof Error)) return { name: typeof value, message: String(value) };
  const fields = value as Error & Partial<Record<'code' | 'syscall' | 'address' | 'port' | 'hostname', unknown>>;
  const link: ErrorLink = { name: value.name, message: value.message };
  if (typeof fields.code === 'string' || typeof fields.code === 'number') link.code = fields.code;
  if (typeof fields.syscall === 'string') link.syscall = fields.syscall;
  if (typeof fields.address === 'string') link.address = fields.address;
  if (typeof fields.port === 'number') link.port = fields.port;
  if (typeof fields.hostname === 'string') link.hostname = fields.hostname;
  return link;
}

/** `error` and every `cause` under it, outermost first (an AggregateError's errors count as its causes). */
export function errorChain(error: unknown): ErrorLink[] {
  const links: ErrorLink[] = [];
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current !== undefined && current !== null && !seen.has(current) && links.length < MAX_LINKS) {
    seen.add(current);
    links.push(linkOf(current));
    const next: unknown = (current as { cause?: unknown }).cause;
    current = next ?? (current instanceof AggregateError ? current.errors[0] : undefined);
  }
  return links;
}

/** One line: the messages of the chain with the first code and address found, e.g. "fetch failed: connect ECONNREFUSED 127.0.0.1:9 (ECONNREFUSED)". */
export function describeChain(error: unknown): string {
  const links = errorChain(error);
  const messages = links.map((link) => link.message).filter((message, i, all) => message && all.indexOf(message) === i);
  const code = links.find((link) => link.code !== undefined)?.code;
  return `${messages.join(': ')}${code !== undefined && !messages.join(' ').includes(String(code)) ? ` (${code})` : ''}`;
}
