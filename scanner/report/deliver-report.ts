/**
 * After a scan: suppressions applied, the report built and validated, written in its format to its transport, the
 * threshold rules' lines on stderr (docs/architecture.md §2.2), and the exit code (suppressed findings never count). execute-scan.ts imports it when the scan is done, so none of the report
 * code (formatters, the report's validator) is loaded before a scan's first request.
 */
import type { CliIo } from '../cli-io.js';
import type { CommonFlags } from '../common-args.js';
import { incompleteness } from '../completeness.js';
import { EXIT_FATAL, EXIT_FINDINGS, EXIT_INCOMPLETE, EXIT_OK } from '../exit-codes.js';
import { formatHtml } from '../formatters/html.js';
import { formatJson } from '../formatters/json.js';
import { formatJunit } from '../formatters/junit.js';
import { formatSarif } from '../formatters/sarif.js';
import { adviceLine, formatTable, vulnerabilityTable } from '../formatters/table.js';
import { formatYaml } from '../formatters/yaml.js';
import type { ScanOutcome } from '../scan-result.js';
import { activeSuppressions, type Suppression } from '../config/suppressions.js';
import { writeToFile } from '../transports/file.js';
import { writeToStdout } from '../transports/stdout.js';
import { postToUrl } from '../transports/url.js';
import { buildReport } from './build-report.js';
import { countedRows, findingRows } from './findings.js';
import { assertValidReport } from './validate-report.js';
import { reportWrittenLine } from './written-line.js';

/** What a finished scan hands over for its report. */
export interface Delivery {
  common: CommonFlags;
  outcome: ScanOutcome;
  /** The report's `options`: the effective settings of the scan. */
  options: Record<string, unknown>;
  /** What the description was converted from (OpenAPI scans of a Swagger 2.0 description). */
  description?: { convertedFrom?: string };
  /** Accept failed issues by fingerprint: an expired one is a warning on stderr and suppresses nothing. */
  suppressions?: readonly Suppression[];
}

/** Builds, validates and delivers the report of a finished scan; returns the scan's exit code. */
export async function deliverReport(io: CliIo, delivery: Delivery): Promise<number> {
  const { common, outcome: scanned, options: scanOptions, description = {}, suppressions = [] } = delivery;
  const cwd = io.cwd ?? process.cwd();
  const active = activeSuppressions(suppressions);
  for (const warning of active.warnings) io.stderr.write(`warning: ${warning}\n`);
  const outcome: ScanOutcome = { ...scanned, suppressions: active.byFingerprint };
  const options =
    suppressions.length > 0
      ? {
          ...scanOptions,
          suppressions: {
            inForce: active.byFingerprint.size,
            expired: suppressions.length - active.byFingerprint.size,
          },
        }
      : scanOptions;
  const completeness = incompleteness(outcome);
  const report = buildReport(outcome, options, description);
  assertValidReport(report, 'generated report');

  const formats: Record<string, () => string> = {
    json: () => formatJson(report),
    yaml: () => formatYaml(report),
    sarif: () => formatSarif(outcome),
    junit: () => formatJunit(outcome),
    html: () => formatHtml(outcome),
    table: () => formatTable(outcome),
  };
  const text = formats[common.reportFormat]();
  if (common.reportTransport === 'file') await writeToFile(common.reportFile!, text, cwd);
  else if (common.reportTransport === 'url') await postToUrl(common.reportUrl!, formatJson(report));
  else writeToStdout(io, text);

  // Threshold rules 1 and 2: a finding strictly above the threshold (or a threshold of 0) also writes to stderr.
  // Suppressed findings are in the report but never count, here or for the exit code.
  const rows = countedRows(findingRows(outcome));
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
