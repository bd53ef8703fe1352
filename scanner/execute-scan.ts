/**
 * What every scan command shares: load and select checks, check reachability, run, build and validate the report,
 * deliver it, apply the threshold rules (DESIGN §2.2), and choose the exit code.
 */
import type { Operation } from './api.js';
import type { CliIo } from './cli-io.js';
import { reportedOptions } from './check-options.js';
import { formatSize, type CommonFlags } from './common-args.js';
import type { CurlFlags } from './curl-args.js';
import type { IdentitySpec } from './model/identity-spec.js';
import { identitiesFromOptions } from './model/identity-options.js';
import { runScan } from './engine.js';
import { loadBaseline, withoutBaseline } from './baseline.js';
import { formatJson } from './formatters/json.js';
import { formatSarif } from './formatters/sarif.js';
import { adviceLine, formatTable, vulnerabilityTable } from './formatters/table.js';
import { formatYaml } from './formatters/yaml.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, type TransportOptions } from './http.js';
import { createProgress } from './progress.js';
import { proxyFor } from './proxy-from-env.js';
import { formatRate } from './rate-limiter.js';
import { assertReachable } from './reachability.js';
import { buildReport } from './report/build-report.js';
import { findingRows } from './report/findings.js';
import { assertValidReport } from './report/validate-report.js';
import type { ScanKind } from './scan-result.js';
import { runsIn } from './scan-kinds.js';
import { scannerError } from './errors.js';
import type { ScanArgs } from './scan-argv.js';
import { selectChecks } from './select-checks.js';
import { incompleteness } from './completeness.js';
import { filterOperations } from './operation-filter.js';
import { shardOperations } from './shard.js';
import { reportWrittenLine } from './report/written-line.js';
import { writeToFile } from './transports/file.js';
import { writeToStdout } from './transports/stdout.js';
import { postToUrl } from './transports/url.js';

const EXIT_OK = 0;
export const EXIT_FATAL = 1;
const EXIT_FINDINGS = 2;
const EXIT_INCOMPLETE = 3;

export interface ScanRequest {
  command: string;
  kind: ScanKind;
  operations: Operation[];
  common: CommonFlags;
  curl: CurlFlags;
  /** The OpenAPI description the operations come from (the API model reads its schemas). */
  document?: Record<string, unknown>;
  /** Scan identities besides the supplied credential and --as-other (--identity, a config file). */
  identities?: IdentitySpec[];
  /** The loaded checks, their declared options and the values given for them (parseScanArgv). */
  checks: Pick<ScanArgs, 'checks' | 'declared' | 'checkOptions'>;
  /** OpenAPI scans of a converted description: what it was converted from, for the report and a note on stderr. */
  convertedFrom?: string;
  /**
   * Work before the checks over the scan's transport, once the target is reachable (GraphQL: read the schema and
   * build one operation per field); its operations replace `operations`, narrowed by the operation filters.
   */
  prepare?: (
    transport: TransportOptions,
    signal?: AbortSignal,
  ) => Promise<{ operations: Operation[]; requestsSent: number }>;
}

function redactUserInfo(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    if (parsed.username || parsed.password) {
      parsed.username = '[redacted]';
      parsed.password = '';
    }
    return parsed.href;
  } catch {
    return '[unparsable]';
  }
}

export async function executeScan(io: CliIo, request: ScanRequest): Promise<number> {
  const { common, curl } = request;
  const scoped = filterOperations(request.operations, common.includeOperations, common.excludeOperations);
  request = { ...request, operations: scoped };
  // An empty credential would be sent as is and answered 400 or 401: say so before anything is sent.
  const empty = scoped.find((op) => op.credential && op.credential.value.trim() === '');
  if (empty?.credential)
    io.stderr.write(
      `warning: the ${empty.credential.name} value is empty: checks that need a credential will not run and the scan will be incomplete\n`,
    );
  const env = io.env ?? {};
  const cwd = io.cwd ?? process.cwd();
  const baseline = common.baseline ? loadBaseline(common.baseline, cwd) : undefined;
  const selected = selectChecks(request.checks.checks, {
    scans: common.scans.length > 0 ? [...common.scans] : undefined,
    excludeScans: [...common.excludeScans],
    severityThreshold: common.severityThreshold,
    onlyScansAboveThreshold: common.onlyScansAboveThreshold,
  });
  if (common.shard && !request.prepare && shardOperations(request.operations, common.shard).length === 0) {
    throw scannerError(
      'invalid_argument',
      `--shard ${common.shard.index}/${common.shard.count}: this slice has no operations (there are ${request.operations.length})`,
    );
  }
  const target = request.operations[0].url;
  const proxy = proxyFor(target, curl.proxy, env);
  const tls = { insecure: curl.insecure, caFile: curl.cacert, certFile: curl.cert, keyFile: curl.key };
  const requestTimeoutMs = curl.maxTimeMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  // Through a proxy the target's reachability is the proxy's business; its errors show on each check.
  if (!proxy) await assertReachable(target, { tls, timeoutMs: curl.connectTimeoutMs ?? requestTimeoutMs });

  const transport = {
    rate: common.rate,
    requestTimeoutMs,
    connectTimeoutMs: curl.connectTimeoutMs,
    followRedirects: curl.location,
    maxRedirects: curl.maxRedirs,
    tls,
    proxy,
    allowDestructive: common.allowDestructive,
    maxBodyBytes: common.maxBody,
  };
  // GraphQL endpoints become their fields first; the API model (scan-services.ts) then reads the whole description
  // before slicing, so every shard scans the same objects as one scan.
  const prepared = request.prepare
    ? await request.prepare(transport, io.signal).then((p) => ({
        ...p,
        operations: filterOperations(p.operations, common.includeOperations, common.excludeOperations),
      }))
    : { operations: request.operations, requestsSent: 0 };
  if (prepared.operations.length === 0)
    throw scannerError('invalid_argument', 'nothing to scan: every operation was filtered out');
  const operations = common.shard ? shardOperations(prepared.operations, common.shard) : prepared.operations;

  const runsHere = selected.checks.filter((c) => runsIn(c.definition, request.kind));
  const progress = createProgress(
    io,
    !common.noProgress,
    `${operations.length} operation${operations.length === 1 ? '' : 's'} × ${runsHere.length} check${runsHere.length === 1 ? '' : 's'}`,
  );
  const ran = await runScan({
    kind: request.kind,
    operations,
    checks: selected.checks,
    options: request.checks.checkOptions,
    ...(common.shard ? { oncePerScan: { operation: prepared.operations[0], report: common.shard.index === 1 } } : {}),
    // The model reads the whole description before slicing, so every shard scans the same objects as one scan.
    model: {
      operations: prepared.operations,
      ...(request.document ? { document: request.document } : {}),
      given: request.kind === 'curl',
    },
    identities: request.identities ?? identitiesFromOptions(request.checks.checkOptions, io),
    rate: common.rate,
    concurrency: common.concurrency,
    requestTimeoutMs,
    connectTimeoutMs: curl.connectTimeoutMs,
    checkTimeoutMs: common.checkTimeout === undefined ? undefined : Math.round(common.checkTimeout * 1000),
    followRedirects: curl.location,
    maxRedirects: curl.maxRedirs,
    tls,
    proxy,
    allowDestructive: common.allowDestructive,
    maxBodyBytes: common.maxBody,
    perOperation: common.perOperation,
    canaryEvery: common.canaryEvery,
    onProgress: (done, total) => progress.update(done, total),
    signal: io.signal,
    log: common.debug
      ? { debug: (m) => io.stderr.write(`debug: ${m}\n`), warn: (m) => io.stderr.write(`warning: ${m}\n`) }
      : { debug() {}, warn: (m) => io.stderr.write(`warning: ${m}\n`) },
  });
  progress.stop();
  const scanned = { ...ran, requestsSent: ran.requestsSent + prepared.requestsSent };
  const outcome = baseline ? withoutBaseline(scanned, baseline) : scanned;

  const options = {
    command: request.command,
    scans: common.scans,
    excludeScans: common.excludeScans,
    checksDirs: common.checksDirs,
    checks: selected.checks.map((c) => c.definition.id),
    pulledInDependencies: selected.pulledIn,
    severityThreshold: common.severityThreshold,
    onlyScansAboveThreshold: common.onlyScansAboveThreshold,
    rate: formatRate(common.rate),
    concurrency: common.concurrency,
    requestTimeoutMs,
    ...(curl.connectTimeoutMs ? { connectTimeoutMs: curl.connectTimeoutMs } : {}),
    followRedirects: curl.location,
    maxBody: formatSize(common.maxBody),
    insecure: curl.insecure,
    ...(proxy ? { proxy: redactUserInfo(proxy) } : {}),
    reportFormat: common.reportFormat,
    reportTransport: common.reportTransport,
    allowDestructive: common.allowDestructive,
    ...(common.includeOperations.length > 0 ? { includeOperations: common.includeOperations } : {}),
    ...(common.excludeOperations.length > 0 ? { excludeOperations: common.excludeOperations } : {}),
    failOnIncomplete: common.failOnIncomplete,
    perOperation: common.perOperation,
    ...(common.baseline ? { baseline: common.baseline } : {}),
    ...(common.shard
      ? { shard: `${common.shard.index}/${common.shard.count}`, operationsTotal: prepared.operations.length }
      : {}),
    ...reportedOptions(
      request.checks.declared,
      request.checks.checkOptions,
      selected.checks.map((c) => c.definition.id),
    ),
    requestsSent: outcome.requestsSent,
    ...(outcome.requestsRefused ? { requestsRefused: outcome.requestsRefused } : {}),
  };
  const completeness = incompleteness(outcome);
  const report = buildReport(outcome, options, request.convertedFrom ? { convertedFrom: request.convertedFrom } : {});
  assertValidReport(report, 'generated report');

  const text = {
    json: () => formatJson(report),
    yaml: () => formatYaml(report),
    sarif: () => formatSarif(outcome),
    table: () => formatTable(outcome),
  }[common.reportFormat]();
  if (common.reportTransport === 'file') await writeToFile(common.reportFile!, text, cwd);
  else if (common.reportTransport === 'url') await postToUrl(common.reportUrl!, formatJson(report));
  else writeToStdout(io, text);

  // Threshold rules 1 and 2: a finding strictly above the threshold (or a threshold of 0) also writes to stderr.
  const rows = findingRows(outcome);
  if (common.severityThreshold === 0 || rows.some((r) => r.score > common.severityThreshold)) {
    const tableOnStdout = common.reportFormat === 'table' && common.reportTransport === 'stdout';
    io.stderr.write(`${adviceLine(rows, completeness)}\n`);
    if (!tableOnStdout && rows.length > 0) io.stderr.write(`${vulnerabilityTable(rows)}\n`);
  }
  // A report written without a word leaves one guessing: the run ends naming the file and what it holds.
  if (common.reportTransport === 'file')
    io.stderr.write(
      `${reportWrittenLine(common.reportFile!, common.reportFormat, outcome, common.severityThreshold)}\n`,
    );
  if (io.signal?.aborted) {
    io.stderr.write('scanner: scan interrupted; the report is partial\n');
    return EXIT_FATAL;
  }
  // Rule 5: with --only-scans-above-threshold, any finding at all is a distinct non-zero exit.
  if (common.onlyScansAboveThreshold && rows.length > 0) return EXIT_FINDINGS;
  if (!completeness.complete) {
    // The table already says it on stdout; other formats and transports get the line on stderr.
    if (common.reportFormat !== 'table' || common.reportTransport !== 'stdout')
      io.stderr.write(`${adviceLine([], completeness)}\n`);
    if (common.failOnIncomplete) return EXIT_INCOMPLETE;
  }
  return EXIT_OK;
}
