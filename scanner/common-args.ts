/** The scan-wide flags of `scan *` and `discover api` (DESIGN §2.1): one declared table, defaults and validation. */
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
  baseline?: string;
  shard?: Shard;
  allowDestructive: boolean;
  includeOperations: string[];
  excludeOperations: string[];
  failOnIncomplete: boolean;
  /** Judge every operation itself: no check shares a verdict between operations (CheckDefinition.sharedVerdict). */
  perOperation: boolean;
  /** Re-validate the credential every this many requests. */
  canaryEvery: number;
  /** `--max-body`: decoded bytes of each response body kept; the rest is discarded and the evidence says so. */
  maxBodyBytes: number;
  maxBodyText: string;
}

/** One scan-wide flag: how it parses, how `--help` and the README show it. */
export interface ScanFlag {
  flag: `--${string}`;
  short?: string;
  type: 'string' | 'boolean';
  multiple?: boolean;
  /** Shown after the flag (`<glob>`). */
  valueName?: string;
  /** `--help` lines (the first is the README's one-line doc). */
  doc: string[];
}

/**
 * The flags every scan command shares (DESIGN §2.1), declared once: parsing, `--help` and the README table come from
 * here; options of checks (`--jwt-secrets-file`, `--as-other`…) are declared by the checks (check-options.ts).
 */
const SCAN_FLAGS: readonly ScanFlag[] = [
  {
    flag: '--scans',
    type: 'string',
    multiple: true,
    valueName: '<glob>',
    doc: ['run only these checks (repeatable; jwt.*, misconfiguration.http_*, an exact id)'],
  },
  {
    flag: '--exclude-scans',
    type: 'string',
    multiple: true,
    valueName: '<glob>',
    doc: ['do not run these checks (repeatable; wins over --scans)'],
  },
  {
    flag: '--checks-dir',
    type: 'string',
    multiple: true,
    valueName: '<dir>',
    doc: ["load custom checks from a directory too (repeatable); their options' flags join this help"],
  },
  {
    flag: '--report-format',
    type: 'string',
    valueName: '<f>',
    doc: ['table (default), json, yaml or sarif (SARIF 2.1.0)'],
  },
  {
    flag: '--report-transport',
    type: 'string',
    valueName: '<t>',
    doc: ['stdout, file or url (default: file with --report-file, url with --report-url, else stdout)'],
  },
  { flag: '--report-file', type: 'string', valueName: '<path>', doc: ['write the report to this file'] },
  { flag: '--report-url', type: 'string', valueName: '<url>', doc: ['POST the JSON report to this URL'] },
  {
    flag: '--severity-threshold',
    type: 'string',
    valueName: '<n>',
    doc: [
      '0–10 (default 1.0): a finding scoring strictly above it also writes the advice',
      '(and the vulnerability list) to stderr; 0 always does',
    ],
  },
  {
    flag: '--only-scans-above-threshold',
    type: 'boolean',
    doc: [
      'skip checks whose maximum score is below the threshold (their dependencies',
      'still run) and exit 2 on any finding',
    ],
  },
  {
    flag: '--allow-destructive',
    type: 'boolean',
    doc: [
      'send destructive operations too (every DELETE, and reset/drop/purge/wipe… by name);',
      'without it they are never sent and are reported as skipped',
    ],
  },
  {
    flag: '--include-operations',
    type: 'string',
    multiple: true,
    valueName: '<glob>',
    doc: ["scan only these operations (repeatable; globs on 'METHOD /path' and operationId)"],
  },
  {
    flag: '--exclude-operations',
    type: 'string',
    multiple: true,
    valueName: '<glob>',
    doc: ['do not scan these operations (repeatable; wins over --include-operations)'],
  },
  {
    flag: '--fail-on-incomplete',
    type: 'boolean',
    doc: [
      'exit 3 when the scan is incomplete (checks that could not run: no, empty or',
      'rejected credential, credential lost mid-scan, errors)',
    ],
  },
  {
    flag: '--per-operation',
    type: 'boolean',
    doc: [
      'run every check on every operation: by default a check about what operations share',
      '(a token verifier, a CORS policy) runs on one of them; the others are covered by its pass',
    ],
  },
  {
    flag: '--canary-every',
    type: 'string',
    valueName: '<n>',
    doc: ['re-validate the supplied credential every n requests (default 25; also at start and end)'],
  },
  { flag: '--rate', type: 'string', valueName: '<n>/<s|m|h>', doc: ['requests per host (default 50/s)'] },
  { flag: '--concurrency', type: 'string', valueName: '<n>', doc: ['checks in flight at once (default 8)'] },
  { flag: '--check-timeout', type: 'string', valueName: '<s>', doc: ['time budget per check in seconds (default 60)'] },
  {
    flag: '--max-body',
    type: 'string',
    valueName: '<size>',
    doc: [
      'read at most this much of each response body (default 5MiB; also KiB, GiB or bytes):',
      'the rest is discarded and the evidence says the body was cut',
    ],
  },
  {
    flag: '--baseline',
    type: 'string',
    valueName: '<report.json>',
    doc: ['report only findings that are not in this earlier JSON report'],
  },
  {
    flag: '--shard',
    type: 'string',
    valueName: '<i>/<n>',
    doc: [
      'scan only the i-th of n deterministic slices of the operations',
      '(join the reports with scanner report merge)',
    ],
  },
  {
    flag: '--no-progress',
    type: 'boolean',
    doc: ['no progress on stderr (a bar on a terminal, else a line every 5 s)'],
  },
  { flag: '--debug', type: 'boolean', doc: ['diagnostics from checks on stderr, stacks on fatal errors'] },
  { flag: '--help', short: 'h', type: 'boolean', doc: ['this help'] },
];

export const commonOptions: Options = Object.fromEntries(
  SCAN_FLAGS.map((f) => [
    f.flag.slice(2),
    { type: f.type, ...(f.multiple ? { multiple: true } : {}), ...(f.short ? { short: f.short } : {}) },
  ]),
);

const HELP_COLUMN = 37;

/** One `--help` entry: the flag column, then the doc lines aligned (a long flag puts its doc on the next line). */
export function helpEntry(usage: string, doc: readonly string[]): string {
  const head = `  ${usage.startsWith('--') ? `    ${usage}` : usage}`;
  const pad = ' '.repeat(HELP_COLUMN);
  const [first = '', ...rest] = doc;
  const lines = head.length < HELP_COLUMN ? [`${head.padEnd(HELP_COLUMN)}${first}`] : [head, `${pad}${first}`];
  return [...lines, ...rest.map((line) => `${pad}${line}`)].join('\n');
}

const usageOf = (f: ScanFlag): string =>
  `${f.short ? `-${f.short}, ` : ''}${f.flag}${f.valueName ? ` ${f.valueName}` : ''}`;

/** The scan-wide flags, for every scan command's `--help`. */
export const commonHelp = `Common flags:
${SCAN_FLAGS.map((f) => helpEntry(usageOf(f), f.doc)).join('\n')}`;

export const exitCodesHelp =
  'Exit codes: 0 scan completed · 1 fatal error (one line on stderr) · 2 findings with --only-scans-above-threshold · 3 incomplete scan with --fail-on-incomplete';

/** README rows of the scan-wide flags (`| flag | doc |`, without the closing column). */
export function scanFlagRows(): string[] {
  return SCAN_FLAGS.map(
    (f) => `| \`${usageOf(f).replaceAll('|', '\\|')}\` | ${f.doc.join(' ').replaceAll('|', '\\|')} |`,
  );
}

function strings(value: Values[string]): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
}

function str(value: Values[string]): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], flag: string): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value))
    throw scannerError('invalid_argument', `${flag} ${value}: expected one of ${allowed.join(', ')}`);
  return value as T;
}

export function commonFlagsFrom(values: Values): CommonFlags {
  const reportFile = str(values['report-file']);
  const reportUrl = str(values['report-url']);
  const reportFormat =
    oneOf(str(values['report-format']), ['table', 'json', 'yaml', 'sarif'] as const, '--report-format') ?? 'table';
  const reportTransport =
    oneOf(str(values['report-transport']), ['stdout', 'file', 'url'] as const, '--report-transport') ??
    (reportFile ? 'file' : reportUrl ? 'url' : 'stdout');
  if (reportTransport === 'file' && !reportFile)
    throw scannerError('invalid_argument', '--report-transport file needs --report-file <path>');
  if (reportTransport === 'url' && !reportUrl)
    throw scannerError('invalid_argument', '--report-transport url needs --report-url <url>');
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
  if (
    thresholdText !== undefined &&
    (thresholdText.trim() === '' ||
      !Number.isFinite(severityThreshold) ||
      severityThreshold < 0 ||
      severityThreshold > 10)
  ) {
    throw scannerError('invalid_argument', `--severity-threshold ${thresholdText}: expected a number from 0 to 10`);
  }
  const rateText = str(values.rate) ?? `${DEFAULT_RATE.count}/s`;
  const rate = parseRate(rateText);
  if (!rate) throw scannerError('invalid_argument', `--rate ${rateText}: expected <n>/<s|m|h>, e.g. 50/s`);
  const concurrencyText = str(values.concurrency) ?? '8';
  if (!/^\d+$/.test(concurrencyText) || Number(concurrencyText) < 1)
    throw scannerError('invalid_argument', `--concurrency ${concurrencyText}: expected a whole number of at least 1`);
  const canaryText = str(values['canary-every']) ?? '25';
  if (!/^\d+$/.test(canaryText) || Number(canaryText) < 1)
    throw scannerError('invalid_argument', `--canary-every ${canaryText}: expected a whole number of at least 1`);
  const checkTimeoutText = str(values['check-timeout']);
  const checkTimeoutS = checkTimeoutText === undefined ? undefined : Number(checkTimeoutText);
  if (checkTimeoutS !== undefined && !(checkTimeoutS > 0))
    throw scannerError('invalid_argument', `--check-timeout ${checkTimeoutText}: expected a number of seconds above 0`);

  const maxBodyText = str(values['max-body']) ?? '5MiB';
  const maxBodyBytes = parseSize(maxBodyText);
  if (maxBodyBytes === undefined)
    throw scannerError(
      'invalid_argument',
      `--max-body ${maxBodyText}: expected a size such as 5MiB, 512KiB or 1048576`,
    );

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
    baseline: str(values.baseline),
    ...(str(values.shard) !== undefined ? { shard: parseShard(str(values.shard)!) } : {}),
    allowDestructive: values['allow-destructive'] === true,
    includeOperations: strings(values['include-operations']),
    excludeOperations: strings(values['exclude-operations']),
    failOnIncomplete: values['fail-on-incomplete'] === true,
    perOperation: values['per-operation'] === true,
    canaryEvery: Number(canaryText),
    maxBodyBytes,
    maxBodyText,
  };
}

const UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1024,
  kib: 1024,
  kb: 1000,
  m: 1024 ** 2,
  mib: 1024 ** 2,
  mb: 1e6,
  g: 1024 ** 3,
  gib: 1024 ** 3,
  gb: 1e9,
};

/** `5MiB`, `512KiB`, `1048576` → bytes (at least 1 KiB: a smaller cap would cut every answer); undefined otherwise. */
function parseSize(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = match ? UNITS[match[2].toLowerCase()] : undefined;
  if (!match || unit === undefined) return undefined;
  const bytes = Math.floor(Number(match[1]) * unit);
  return bytes >= 1024 ? bytes : undefined;
}
