/** The common flags of `scan *` and `discover api` (DESIGN §2.1), their defaults, and their validation. */
import type { ParseArgsConfig } from 'node:util';
import { scannerError } from './errors.js';
import { DEFAULT_RATE, parseRate, type Rate } from './rate-limiter.js';
import { parseShard, type Shard } from './shard.js';

type Options = NonNullable<ParseArgsConfig['options']>;
type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

export type ReportFormat = 'table' | 'json' | 'yaml' | 'sarif';
export type ReportTransport = 'stdout' | 'file' | 'url';

export interface CommonFlags {
  scans: string[];
  excludeScans: string[];
  checksDirs: string[];
  reportFormat: ReportFormat;
  reportTransport: ReportTransport;
  reportFile?: string;
  reportUrl?: string;
  severityThreshold: number;
  onlyScansAboveThreshold: boolean;
  rate: Rate;
  rateText: string;
  concurrency: number;
  checkTimeoutMs?: number;
  progress: boolean;
  debug: boolean;
  jwtSecretsFiles: string[];
  jwtPublicKeyFile?: string;
  callbackHost?: string;
  baseline?: string;
  shard?: Shard;
  /** `--as-other 'Name: value'`: a second identity's credential header, for object-level authorization checks. */
  asOther?: { name: string; value: string };
  /** Real tokens for the claim checks (a changed claim cannot be forged without the issuer's key). */
  expiredToken?: string;
  otherIssuerToken?: string;
  otherAudienceToken?: string;
  /** Requests in resource.rate_limit_absent's bounded burst. */
  rateLimitBurst?: number;
}

export const commonOptions: Options = {
  scans: { type: 'string', multiple: true },
  'exclude-scans': { type: 'string', multiple: true },
  'checks-dir': { type: 'string', multiple: true },
  'report-format': { type: 'string' },
  'report-transport': { type: 'string' },
  'report-file': { type: 'string' },
  'report-url': { type: 'string' },
  'severity-threshold': { type: 'string' },
  'only-scans-above-threshold': { type: 'boolean' },
  rate: { type: 'string' },
  concurrency: { type: 'string' },
  'check-timeout': { type: 'string' },
  'no-progress': { type: 'boolean' },
  debug: { type: 'boolean' },
  'jwt-secrets-file': { type: 'string', multiple: true },
  'jwt-public-key-file': { type: 'string' },
  'callback-host': { type: 'string' },
  baseline: { type: 'string' },
  shard: { type: 'string' },
  'as-other': { type: 'string' },
  'jwt-expired-token': { type: 'string' },
  'jwt-other-issuer-token': { type: 'string' },
  'jwt-other-audience-token': { type: 'string' },
  'rate-limit-burst': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

export const commonHelp = `Common flags:
      --scans <glob>                 run only these checks (repeatable; jwt.*, misconfiguration.http_*, an exact id)
      --exclude-scans <glob>         do not run these checks (repeatable; wins over --scans)
      --checks-dir <dir>             load custom checks from a directory too (repeatable)
      --report-format <f>            table (default), json, yaml or sarif (SARIF 2.1.0)
      --report-transport <t>         stdout, file or url (default: file with --report-file, url with --report-url, else stdout)
      --report-file <path>           write the report to this file
      --report-url <url>             POST the JSON report to this URL
      --severity-threshold <n>       0–10 (default 1.0): a finding scoring strictly above it also writes the advice
                                     (and the vulnerability list) to stderr; 0 always does
      --only-scans-above-threshold   skip checks whose maximum score is below the threshold (their dependencies
                                     still run) and exit 2 on any finding
      --rate <n>/<s|m|h>             requests per host (default 50/s)
      --concurrency <n>              checks in flight at once (default 8)
      --check-timeout <s>            time budget per check in seconds (default 60)
      --jwt-secrets-file <path>      extra secrets for jwt.weak_secret, one per line (repeatable; SecLists' jwt-secrets works)
      --jwt-public-key-file <pem>    the token issuer's public key, for jwt.hmac_confusion (default: the target's JWKS)
      --callback-host <host>         an address of this machine the target can reach, for jku/x5u injection callbacks
      --as-other <'Name: value'>     a second identity's credential header, for object-level authorization checks
      --jwt-expired-token <jwt>      a token of the same issuer that expired, for jwt.expired_accepted
      --jwt-other-issuer-token <jwt> an unexpired token from another issuer, for jwt.issuer_not_validated
      --jwt-other-audience-token <jwt>
                                     an unexpired token for another audience, for jwt.audience_not_validated
      --rate-limit-burst <n>         requests in resource.rate_limit_absent's burst (2–1000, default 50)
      --baseline <report.json>       report only findings that are not in this earlier JSON report
      --shard <i>/<n>                scan only the i-th of n deterministic slices of the operations
                                     (join the reports with scanner report merge)
      --no-progress                  no progress bar (it is only shown when stderr is a terminal)
      --debug                        diagnostics from checks on stderr, stacks on fatal errors
  -h, --help                         this help

Exit codes: 0 scan completed · 1 fatal error (one line on stderr) · 2 findings with --only-scans-above-threshold`;

function strings(value: Values[string]): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
}

function str(value: Values[string]): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], flag: string): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw scannerError('invalid_argument', `${flag} ${value}: expected one of ${allowed.join(', ')}`);
  return value as T;
}

function headerPair(line: string, flag: string): { name: string; value: string } {
  const colon = line.indexOf(':');
  if (colon <= 0 || !line.slice(colon + 1).trim()) throw scannerError('invalid_argument', `${flag}: expected "Name: value", e.g. "Authorization: Bearer <token>"`);
  return { name: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() };
}

export function commonFlagsFrom(values: Values): CommonFlags {
  const reportFile = str(values['report-file']);
  const reportUrl = str(values['report-url']);
  const reportFormat = oneOf(str(values['report-format']), ['table', 'json', 'yaml', 'sarif'] as const, '--report-format') ?? 'table';
  const reportTransport =
    oneOf(str(values['report-transport']), ['stdout', 'file', 'url'] as const, '--report-transport') ?? (reportFile ? 'file' : reportUrl ? 'url' : 'stdout');
  if (reportTransport === 'file' && !reportFile) throw scannerError('invalid_argument', '--report-transport file needs --report-file <path>');
  if (reportTransport === 'url' && !reportUrl) throw scannerError('invalid_argument', '--report-transport url needs --report-url <url>');
  if (reportUrl) {
    try {
      const parsed = new URL(reportUrl);
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('scheme');
    } catch {
      throw scannerError('invalid_argument', `--report-url ${reportUrl}: not an http(s) URL`);
    }
  }

  const thresholdText = str(values['severity-threshold']);
  const severityThreshold = thresholdText === undefined ? 1 : Number(thresholdText);
  if (thresholdText !== undefined && (thresholdText.trim() === '' || !Number.isFinite(severityThreshold) || severityThreshold < 0 || severityThreshold > 10)) {
    throw scannerError('invalid_argument', `--severity-threshold ${thresholdText}: expected a number from 0 to 10`);
  }
  const rateText = str(values.rate) ?? `${DEFAULT_RATE.count}/s`;
  const rate = parseRate(rateText);
  if (!rate) throw scannerError('invalid_argument', `--rate ${rateText}: expected <n>/<s|m|h>, e.g. 50/s`);
  const concurrencyText = str(values.concurrency) ?? '8';
  if (!/^\d+$/.test(concurrencyText) || Number(concurrencyText) < 1) throw scannerError('invalid_argument', `--concurrency ${concurrencyText}: expected a whole number of at least 1`);
  const checkTimeoutText = str(values['check-timeout']);
  const checkTimeoutS = checkTimeoutText === undefined ? undefined : Number(checkTimeoutText);
  if (checkTimeoutS !== undefined && !(checkTimeoutS > 0)) throw scannerError('invalid_argument', `--check-timeout ${checkTimeoutText}: expected a number of seconds above 0`);

  const burstText = str(values['rate-limit-burst']);
  if (burstText !== undefined && (!/^\d+$/.test(burstText) || Number(burstText) < 2 || Number(burstText) > 1000)) {
    throw scannerError('invalid_argument', `--rate-limit-burst ${burstText}: expected a whole number from 2 to 1000`);
  }

  return {
    scans: strings(values.scans),
    excludeScans: strings(values['exclude-scans']),
    checksDirs: strings(values['checks-dir']),
    reportFormat,
    reportTransport,
    reportFile,
    reportUrl,
    severityThreshold,
    onlyScansAboveThreshold: values['only-scans-above-threshold'] === true,
    rate,
    rateText,
    concurrency: Number(concurrencyText),
    checkTimeoutMs: checkTimeoutS === undefined ? undefined : Math.round(checkTimeoutS * 1000),
    progress: values['no-progress'] !== true,
    debug: values.debug === true,
    jwtSecretsFiles: strings(values['jwt-secrets-file']),
    jwtPublicKeyFile: str(values['jwt-public-key-file']),
    callbackHost: str(values['callback-host']),
    baseline: str(values.baseline),
    ...(str(values.shard) !== undefined ? { shard: parseShard(str(values.shard)!) } : {}),
    ...(str(values['as-other']) !== undefined ? { asOther: headerPair(str(values['as-other'])!, '--as-other') } : {}),
    ...(str(values['jwt-expired-token']) !== undefined ? { expiredToken: str(values['jwt-expired-token']) } : {}),
    ...(str(values['jwt-other-issuer-token']) !== undefined ? { otherIssuerToken: str(values['jwt-other-issuer-token']) } : {}),
    ...(str(values['jwt-other-audience-token']) !== undefined ? { otherAudienceToken: str(values['jwt-other-audience-token']) } : {}),
    ...(burstText !== undefined ? { rateLimitBurst: Number(burstText) } : {}),
  };
}
