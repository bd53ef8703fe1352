/** The curl flags `scan curl` understands (docs/architecture.md §2.1), as `util.parseArgs` options, and their parsed form. */
import { readFileSync } from 'node:fs';
import type { ParseArgsConfig } from 'node:util';
import { scannerError } from './errors.js';

export interface CurlFlags {
  method?: string;
  /** Every -d/--data/--data-raw/--data-binary value, in order (curl joins them with `&`). */
  data: string[];
  json: string[];
  /** Raw `Name: value` strings, every one kept. */
  headers: string[];
  cookies: string[];
  user?: string;
  oauth2Bearer?: string;
  userAgent?: string;
  referer?: string;
  insecure: boolean;
  cacert?: string;
  cert?: string;
  key?: string;
  proxy?: string;
  connectTimeoutMs?: number;
  maxTimeMs?: number;
  location: boolean;
  maxRedirs?: number;
}

type Options = NonNullable<ParseArgsConfig['options']>;

export const curlOptions: Options = {
  request: { type: 'string', short: 'X' },
  data: { type: 'string', short: 'd', multiple: true },
  'data-raw': { type: 'string', multiple: true },
  'data-binary': { type: 'string', multiple: true },
  json: { type: 'string', multiple: true },
  header: { type: 'string', short: 'H', multiple: true },
  cookie: { type: 'string', short: 'b', multiple: true },
  user: { type: 'string', short: 'u' },
  'oauth2-bearer': { type: 'string' },
  'user-agent': { type: 'string', short: 'A' },
  referer: { type: 'string', short: 'e' },
  insecure: { type: 'boolean', short: 'k' },
  cacert: { type: 'string' },
  cert: { type: 'string', short: 'E' },
  key: { type: 'string' },
  proxy: { type: 'string', short: 'x' },
  'connect-timeout': { type: 'string' },
  'max-time': { type: 'string', short: 'm' },
  location: { type: 'boolean', short: 'L' },
  'max-redirs': { type: 'string' },
};

export const curlHelp = `Curl flags:
  -X, --request <method>      HTTP method (default GET, or POST when data is given)
  -d, --data <data>           request body; @file reads a file (repeatable, joined with &)
      --data-raw <data>       request body, @ taken literally
      --data-binary <data>    request body; @file reads a file
      --json <data>           JSON body (sets Content-Type and Accept to application/json)
  -H, --header <header>       "Name: value" (repeatable; every value is kept)
  -b, --cookie <a=b; c=d>     cookies to send (repeatable)
  -u, --user <user:password>  HTTP Basic credential
      --oauth2-bearer <token> Bearer credential
  -A, --user-agent <name>     User-Agent header
  -e, --referer <url>         Referer header
  -k, --insecure              do not verify the server's TLS certificate
      --cacert <file>         CA certificate(s) to verify the server with (PEM)
  -E, --cert <file>           client certificate (PEM), with --key
      --key <file>            client private key (PEM)
  -x, --proxy <url>           proxy (default: HTTPS_PROXY / HTTP_PROXY unless NO_PROXY matches)
      --connect-timeout <s>   connection timeout in seconds
  -m, --max-time <s>          time budget per request in seconds (default 10)
  -L, --location              follow redirects
      --max-redirs <n>        redirects to follow with -L (default 30)`;

type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

function strings(value: Values[string]): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
}

function str(value: Values[string]): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function seconds(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0)
    throw scannerError('invalid_argument', `${flag} ${value}: expected a number of seconds above 0`);
  return Math.round(n * 1000);
}

function readData(value: string, flag: string, cwdRead: (path: string) => string): string {
  if (!value.startsWith('@')) return value;
  try {
    return cwdRead(value.slice(1));
  } catch {
    throw scannerError('invalid_argument', `${flag} ${value}: file cannot be read`);
  }
}

export function curlFlagsFrom(
  values: Values,
  readFile: (path: string) => string = (p) => readFileSync(p, 'utf8'),
): CurlFlags {
  const data = [
    ...strings(values.data).map((v) => readData(v, '--data', readFile).replace(/[\r\n]/g, '')),
    ...strings(values['data-binary']).map((v) => readData(v, '--data-binary', readFile)),
    ...strings(values['data-raw']),
  ];
  const maxRedirs = str(values['max-redirs']);
  if (maxRedirs !== undefined && !/^\d+$/.test(maxRedirs))
    throw scannerError('invalid_argument', `--max-redirs ${maxRedirs}: expected a whole number`);
  const method = str(values.request);
  if (method !== undefined && !/^[A-Za-z]+$/.test(method))
    throw scannerError('invalid_argument', `--request ${method}: not an HTTP method`);
  return {
    method: method?.toUpperCase(),
    data,
    json: strings(values.json).map((v) => readData(v, '--json', readFile)),
    headers: strings(values.header),
    cookies: strings(values.cookie),
    user: str(values.user),
    oauth2Bearer: str(values['oauth2-bearer']),
    userAgent: str(values['user-agent']),
    referer: str(values.referer),
    insecure: values.insecure === true,
    cacert: str(values.cacert),
    cert: str(values.cert),
    key: str(values.key),
    proxy: str(values.proxy),
    connectTimeoutMs: seconds(str(values['connect-timeout']), '--connect-timeout'),
    maxTimeMs: seconds(str(values['max-time']), '--max-time'),
    location: values.location === true,
    maxRedirs: maxRedirs === undefined ? undefined : Number(maxRedirs),
  };
}
