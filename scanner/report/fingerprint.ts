/**
 * Technology fingerprint from response headers (`Server`, `X-Powered-By`, `X-AspNet-Version`): the Framework,
 * Language and Server rows of the table, written `name:version`. A small header-only matcher, not Wappalyzer.
 */
import type { Attempt } from '../scan-result.js';

export interface Fingerprint {
  framework: string[];
  language: string[];
  server: string[];
}

interface Rule {
  pattern: RegExp;
  row: keyof Fingerprint;
  name: string;
  also?: { row: keyof Fingerprint; name: string };
}

const SERVER_RULES: Rule[] = [
  { pattern: /^Apache(?:\/([\d.]+))?/i, row: 'server', name: 'Apache HTTP Server' },
  { pattern: /^nginx(?:\/([\d.]+))?/i, row: 'server', name: 'Nginx' },
  { pattern: /^Microsoft-IIS(?:\/([\d.]+))?/i, row: 'server', name: 'IIS' },
  { pattern: /^Kestrel/i, row: 'server', name: 'Kestrel', also: { row: 'framework', name: 'ASP.NET Core' } },
  { pattern: /^gunicorn(?:\/([\d.]+))?/i, row: 'server', name: 'Gunicorn', also: { row: 'language', name: 'Python' } },
  { pattern: /^uvicorn/i, row: 'server', name: 'Uvicorn', also: { row: 'language', name: 'Python' } },
  { pattern: /^Werkzeug(?:\/([\d.]+))?/i, row: 'server', name: 'Werkzeug', also: { row: 'framework', name: 'Flask' } },
  { pattern: /^Jetty(?:\(([\d.]+))?/i, row: 'server', name: 'Jetty', also: { row: 'language', name: 'Java' } },
  { pattern: /^openresty(?:\/([\d.]+))?/i, row: 'server', name: 'OpenResty' },
  { pattern: /^Caddy/i, row: 'server', name: 'Caddy', also: { row: 'language', name: 'Go' } },
  { pattern: /^cloudflare/i, row: 'server', name: 'Cloudflare' },
  { pattern: /^envoy/i, row: 'server', name: 'Envoy' },
  { pattern: /Python\/([\d.]+)/i, row: 'language', name: 'Python' },
  { pattern: /PHP\/([\d.]+)/i, row: 'language', name: 'PHP' },
];

const POWERED_BY_RULES: Rule[] = [
  { pattern: /^Express/i, row: 'framework', name: 'Express', also: { row: 'language', name: 'Node.js' } },
  {
    pattern: /^Next\.js(?:\s+([\d.]+))?/i,
    row: 'framework',
    name: 'Next.js',
    also: { row: 'language', name: 'Node.js' },
  },
  { pattern: /^Nuxt/i, row: 'framework', name: 'Nuxt.js', also: { row: 'language', name: 'Node.js' } },
  { pattern: /^PHP(?:\/([\d.]+))?/i, row: 'language', name: 'PHP' },
  { pattern: /^ASP\.NET/i, row: 'framework', name: 'Microsoft ASP.NET' },
  { pattern: /^Servlet(?:\/([\d.]+))?/i, row: 'language', name: 'Java' },
  { pattern: /^Phusion Passenger/i, row: 'server', name: 'Phusion Passenger' },
];

export function fingerprintFrom(attempts: Attempt[]): Fingerprint {
  const found: Fingerprint = { framework: [], language: [], server: [] };
  const add = (row: keyof Fingerprint, value: string): void => {
    const name = value.split(':')[0];
    if (!found[row].some((v) => v.split(':')[0] === name)) found[row].push(value);
  };
  const apply = (header: string | undefined, rules: Rule[]): void => {
    if (!header) return;
    for (const part of header.split(/\s+(?=[A-Za-z][\w.-]*\/)|,\s*/)) {
      for (const rule of rules) {
        const match = rule.pattern.exec(part.trim());
        if (!match) continue;
        add(rule.row, match[1] ? `${rule.name}:${match[1]}` : rule.name);
        if (rule.also) add(rule.also.row, rule.also.name);
      }
    }
  };
  for (const attempt of attempts) {
    const headers = attempt.response?.headers;
    if (!headers) continue;
    apply(headers.server, SERVER_RULES);
    apply(headers['x-powered-by'], POWERED_BY_RULES);
    if (headers['x-aspnet-version']) add('framework', `Microsoft ASP.NET:${headers['x-aspnet-version']}`);
  }
  return found;
}
