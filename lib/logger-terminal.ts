/**
 * pino's JSON lines made short for a person at a terminal: `12:04:05 WARN  registration-service: message key=value`,
 * and a request as `12:04:05 GET /api/v1/organizations 200 4ms`. Used only when stdout is a TTY; piped or
 * redirected output stays JSON for machines.
 */
const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const SKIP = new Set(['level', 'time', 'msg', 'name', 'pid', 'hostname', 'req', 'res', 'responseTime', 'reqId']);

function clock(time: unknown): string {
  const date = typeof time === 'number' ? new Date(time) : new Date();
  return date.toTimeString().slice(0, 8);
}

function text(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function value(v: unknown): string {
  if (typeof v === 'string') return /\s/.test(v) ? JSON.stringify(v) : v;
  return JSON.stringify(v);
}

/** One JSON log line → one short line (ending in a newline); a line that is not JSON passes through. */
function terminalLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const time = clock(entry.time);
  const req = entry.req as { method?: string; path?: string; url?: string } | undefined;
  const res = entry.res as { statusCode?: number } | undefined;
  if (req && res) {
    const ms = typeof entry.responseTime === 'number' ? ` ${Math.round(entry.responseTime)}ms` : '';
    const err = entry.err ? ` ${value((entry.err as { message?: string }).message ?? entry.err)}` : '';
    return `${time} ${req.method ?? '?'} ${req.path ?? req.url ?? ''} ${res.statusCode ?? '-'}${ms}${err}\n`;
  }
  const level = (LEVELS[entry.level as number] ?? String(entry.level)).padEnd(5);
  const fields = Object.entries(entry)
    .filter(([key]) => !SKIP.has(key))
    .map(([key, v]) =>
      key === 'err' && v && typeof v === 'object'
        ? `err=${value((v as { message?: string }).message ?? v)}`
        : `${key}=${value(v)}`,
    );
  const name = entry.name === undefined ? '' : `${text(entry.name)}: `;
  return `${time} ${level} ${name}${text(entry.msg ?? '')}${fields.length ? ` ${fields.join(' ')}` : ''}\n`;
}

/** A pino destination that writes terminal lines to `out`. */
export function terminalDestination(out: { write(text: string): unknown } = process.stdout): {
  write(line: string): void;
} {
  return {
    write(line: string) {
      out.write(terminalLine(line));
    },
  };
}
