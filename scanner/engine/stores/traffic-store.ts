/**
 * What the scan sent per URL path (`ctx.traffic()`): how many requests (any method: a limiter counts the client's
 * requests), and per method what came back (statuses, header names).
 */

export interface TrafficStore {
  record(method: string, url: string, status: number, headerNames: readonly string[]): void;
  of(method: string, url: string): { sent: number; statuses: number[]; headerNames: string[] };
}

export function createTrafficStore(): TrafficStore {
  const byPath = new Map<string, { sent: number; statuses: number[]; headerNames: Set<string> }>();
  const key = (method: string, url: string): string => {
    const parsed = new URL(url);
    return `${method.toUpperCase()} ${parsed.origin}${parsed.pathname}`;
  };
  return {
    record(method, url, status, headerNames) {
      const entry = byPath.get(key(method, url)) ?? { sent: 0, statuses: [], headerNames: new Set<string>() };
      entry.sent += 1;
      entry.statuses.push(status);
      for (const name of headerNames) entry.headerNames.add(name);
      byPath.set(key(method, url), entry);
    },
    of(method, url) {
      const entry = byPath.get(key(method, url));
      const suffix = key('', url);
      let sent = 0;
      // Keys are `METHOD origin/path`; `suffix` is ` origin/path`, so a match is exactly one method's entry.
      for (const [k, e] of byPath)
        if (k.endsWith(suffix) && !k.slice(0, k.length - suffix.length).includes(' ')) sent += e.sent;
      return { sent, statuses: entry ? [...entry.statuses] : [], headerNames: entry ? [...entry.headerNames] : [] };
    },
  };
}
