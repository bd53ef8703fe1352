/**
 * What every scan command shares: load and select checks, check reachability, run, and hand the outcome with the
 * effective options to the report's delivery (report/deliver-report.ts: format, transport, threshold rules, exit code).
 */
import type { Operation } from './api.js';
import type { CliIo } from './cli-io.js';
import { reportedOptions } from './check-options.js';
import { formatSize, type CommonFlags } from './common-args.js';
import type { CurlFlags } from './curl-args.js';
import type { IdentitySpec } from './model/identity-spec.js';
import { identitiesFromOptions } from './model/identity-options.js';
import { runScan } from './engine.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, type TransportOptions } from './http.js';
import { createProgress } from './progress.js';
import { proxyFor } from './proxy-from-env.js';
import { formatRate } from './rate-limiter.js';
import { assertReachable } from './reachability.js';
import type { ScanKind } from './scan-result.js';
import { runsIn } from './scan-kinds.js';
import { scannerError } from './errors.js';
import type { ScanArgs } from './scan-argv.js';
import { selectChecks } from './select-checks.js';
import { filterOperations } from './operation-filter.js';
import { leftBehindWarnings } from './model/left-behind-warnings.js';
import { shardOperations } from './shard.js';

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
  checks: Pick<ScanArgs, 'checks' | 'declared' | 'checkOptions' | 'config'>;
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
  // Read before anything is sent, so a bad baseline fails fast; imported only when given (it validates a report).
  const baselines = common.baseline ? await import('./baseline.js') : undefined;
  const baseline = baselines && common.baseline ? baselines.loadBaseline(common.baseline, cwd) : undefined;
  // Suppressions of the config file and of --suppressions, read before anything is sent so a bad file fails fast.
  const suppressions = [
    ...(request.checks.config?.suppressions ?? []),
    ...(common.suppressions
      ? await import('./config/suppressions-file.js').then((m) => m.readSuppressionsFile(common.suppressions!, cwd))
      : []),
  ];
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
  if (ran.model) for (const line of leftBehindWarnings(ran.model)) io.stderr.write(`warning: ${line}\n`);
  const scanned = { ...ran, requestsSent: ran.requestsSent + prepared.requestsSent };
  const outcome = baselines && baseline ? baselines.withoutBaseline(scanned, baseline) : scanned;

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
  // Report code is imported now that the scan is done: none of it delays the first request.
  const { deliverReport } = await import('./report/deliver-report.js');
  return deliverReport(io, {
    common,
    outcome,
    options,
    description: request.convertedFrom ? { convertedFrom: request.convertedFrom } : {},
    suppressions,
  });
}
