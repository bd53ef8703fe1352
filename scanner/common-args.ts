/**
 * The scan-wide flags of `scan *` and `discover api` (docs/architecture.md §2.1), declared once with lib/settings: parsing,
 * validation, `--help` and the README table come from here; options of checks (`--jwt-secrets-file`, `--as-other`…)
 * are declared by the checks (check-options.ts) and parsed and rendered by the same code.
 */
import { argOptions, flagsOf, type ArgOptions, type ArgValues } from '../lib/settings/command-line.js';
import { defineSettings, type SettingsOf } from '../lib/settings/declaration.js';
import { loadSettings } from '../lib/settings/load-settings.js';
import { renderHelp } from '../lib/settings/render-help.js';
import { settingsProblems } from '../lib/settings/settings-error.js';
import { scannerError } from './errors.js';
import { DEFAULT_RATE, formatRate, parseRate, type Rate } from './rate-limiter.js';
import { parseShard, type Shard } from './shard.js';

export const scanSettings = defineSettings(
  {
    scans: {
      type: 'list',
      flag: '--scans',
      split: false,
      valueName: '<glob>',
      doc: 'run only these checks (jwt.*, misconfiguration.http_*, an exact id)',
    },
    excludeScans: {
      type: 'list',
      flag: '--exclude-scans',
      split: false,
      valueName: '<glob>',
      doc: 'do not run these checks (wins over --scans)',
    },
    checksDirs: {
      type: 'list',
      flag: '--checks-dir',
      split: false,
      valueName: '<dir>',
      doc: "load custom checks from a directory too; their options' flags join this help",
    },
    reportFormat: {
      type: 'enum',
      choices: ['table', 'json', 'yaml', 'sarif', 'junit', 'html'],
      flag: '--report-format',
      default: 'table',
      doc: 'the report format (sarif: SARIF 2.1.0; junit: for CI test tabs; html: one self-contained page)',
    },
    reportFile: { type: 'string', flag: '--report-file', valueName: '<path>', doc: 'write the report to this file' },
    reportUrl: { type: 'url', flag: '--report-url', doc: 'POST the JSON report to this URL' },
    reportTransport: {
      type: 'enum',
      choices: ['stdout', 'file', 'url'],
      flag: '--report-transport',
      default: (s) => (s.reportFile ? 'file' : s.reportUrl ? 'url' : 'stdout'),
      defaultDoc: 'file with --report-file, url with --report-url, else stdout',
      doc: 'where the report goes',
    },
    severityThreshold: {
      type: 'number',
      flag: '--severity-threshold',
      min: 0,
      max: 10,
      default: 1,
      defaultDoc: '1.0',
      doc: 'a finding scoring strictly above it also writes the advice (and the vulnerability list) to stderr; 0 always does',
    },
    onlyScansAboveThreshold: {
      type: 'boolean',
      flag: '--only-scans-above-threshold',
      doc: 'skip checks whose maximum score is below the threshold (their dependencies still run) and exit 2 on any finding',
    },
    allowDestructive: {
      type: 'boolean',
      flag: '--allow-destructive',
      doc: 'send destructive operations too (every DELETE, and reset/drop/purge/wipe… by name); without it they are never sent and are reported as skipped',
    },
    includeOperations: {
      type: 'list',
      flag: '--include-operations',
      split: false,
      valueName: '<glob>',
      doc: "scan only these operations (globs on 'METHOD /path' and operationId)",
    },
    excludeOperations: {
      type: 'list',
      flag: '--exclude-operations',
      split: false,
      valueName: '<glob>',
      doc: 'do not scan these operations (wins over --include-operations)',
    },
    failOnIncomplete: {
      type: 'boolean',
      flag: '--fail-on-incomplete',
      doc: 'exit 3 when the scan is incomplete (checks that could not run: no, empty or rejected credential, credential lost mid-scan, errors)',
    },
    perOperation: {
      type: 'boolean',
      flag: '--per-operation',
      doc: 'run every check on every operation: by default a check about what operations share (a token verifier, a CORS policy) runs on one of them; the others are covered by its pass',
    },
    canaryEvery: {
      type: 'integer',
      flag: '--canary-every',
      min: 1,
      default: 25,
      doc: 're-validate the supplied credential every n requests (also at start and end)',
    },
    rate: {
      type: 'custom',
      flag: '--rate',
      valueName: '<n>/<s|m|h>',
      parse: (text: string): Rate => {
        const rate = parseRate(text);
        if (!rate) throw scannerError('invalid_argument', 'must be <n>/<s|m|h>, e.g. 50/s');
        return rate;
      },
      format: formatRate,
      default: DEFAULT_RATE,
      doc: 'requests per host',
    },
    concurrency: { type: 'integer', flag: '--concurrency', min: 1, default: 8, doc: 'checks in flight at once' },
    checkTimeout: {
      type: 'number',
      flag: '--check-timeout',
      valueName: '<s>',
      defaultDoc: '60',
      check: (seconds) => (seconds > 0 ? undefined : 'must be a number of seconds above 0'),
      doc: 'time budget per check in seconds',
    },
    maxBody: {
      type: 'custom',
      flag: '--max-body',
      valueName: '<size>',
      parse: (text: string): number => {
        const bytes = parseSize(text);
        if (bytes === undefined)
          throw scannerError('invalid_argument', 'expected a size such as 5MiB, 512KiB or 1048576');
        return bytes;
      },
      format: formatSize,
      default: 5 * 1024 ** 2,
      defaultDoc: '5MiB',
      doc: 'read at most this much of each response body (also KiB, GiB or bytes): the rest is discarded and the evidence says the body was cut',
    },
    baseline: {
      type: 'string',
      flag: '--baseline',
      valueName: '<report.json>',
      doc: 'report only findings that are not in this earlier JSON report',
    },
    shard: {
      type: 'custom',
      flag: '--shard',
      valueName: '<i>/<n>',
      parse: parseShard,
      format: (shard: Shard) => `${shard.index}/${shard.count}`,
      doc: 'scan only the i-th of n deterministic slices of the operations (join the reports with scanner report merge)',
    },
    noProgress: {
      type: 'boolean',
      flag: '--no-progress',
      doc: 'no progress on stderr (a bar on a terminal, else a line every 5 s)',
    },
    debug: { type: 'boolean', flag: '--debug', doc: 'diagnostics from checks on stderr, stacks on fatal errors' },
    suppressions: {
      type: 'string',
      flag: '--suppressions',
      valueName: '<file>',
      doc: 'accepted findings: a YAML or JSON list of {fingerprint, reason, expires?}; they stay in the report, marked suppressed, and no longer count for the threshold or the exit code',
    },
    config: {
      type: 'string',
      flag: '--config',
      valueName: '<file>',
      defaultDoc: 'scans: .gatehouse-scanner.yml in the working directory, when present',
      doc: 'read flags from a YAML or JSON file: each long flag as its camelCase key, plus target, kind, headers, identities, suppressions; ${NAME} from the environment; flags typed here win',
    },
    noConfig: { type: 'boolean', flag: '--no-config', doc: 'do not read .gatehouse-scanner.yml' },
  },
  {
    fileTransportNeedsFile: (s, name) =>
      s.reportTransport === 'file' && !s.reportFile
        ? `${name('reportTransport')} file needs ${name('reportFile')} <path>`
        : undefined,
    urlTransportNeedsUrl: (s, name) =>
      s.reportTransport === 'url' && !s.reportUrl
        ? `${name('reportTransport')} url needs ${name('reportUrl')} <url>`
        : undefined,
  },
);

/** The scan-wide settings of one command line. */
export type CommonFlags = SettingsOf<typeof scanSettings.settings>;

/** The util.parseArgs options of the scan-wide flags (`-h, --help` included). */
export const commonOptions: ArgOptions = argOptions(scanSettings.settings);

/** The scan-wide flags, for every scan command's `--help`. */
export const commonHelp = renderHelp(scanSettings.settings, { heading: 'Common flags:' });

export const exitCodesHelp =
  'Exit codes: 0 scan completed · 1 fatal error (one line on stderr) · 2 findings with --only-scans-above-threshold · 3 incomplete scan with --fail-on-incomplete';

/** The scan-wide settings from parsed flag values; every problem in one `invalid_argument` error. */
export function commonFlagsFrom(values: ArgValues): CommonFlags {
  try {
    return loadSettings(scanSettings, { flags: flagsOf(scanSettings.settings, values) });
  } catch (error) {
    if (!settingsProblems(error)) throw error;
    throw scannerError('invalid_argument', (error as Error).message, { cause: error });
  }
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

/** Bytes as the flag writes them back (report options, --help): 5242880 → 5MiB. */
export function formatSize(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const)
    if (bytes % size === 0) return `${bytes / size}${unit}`;
  return String(bytes);
}
