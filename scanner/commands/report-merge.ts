/**
 * `scanner report merge a.json b.json … > all.json`: joins the JSON reports of `--shard` slices (or of separate scans)
 * into one valid report: items in the order given, openapi paths merged, options of the first with the sources listed.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { CliIo } from '../cli-io.js';
import { scannerError } from '../errors.js';
import { formatJson } from '../formatters/json.js';
import { parseArgv } from '../parse-argv.js';
import type { Report } from '../report/report-types.js';
import { assertValidReport } from '../report/validate-report.js';

const reportMergeHelp = `Usage: scanner report merge <report.json> <report.json>... [> all.json]

Joins JSON reports (e.g. the slices of a --shard scan) into one report on stdout. Every input must be a valid
2024-10 report; the result is validated too.

  -h, --help   this help
`;

function mergeReports(reports: Report[], sources: string[]): Report {
  const [first] = reports;
  const merged: Report = {
    ...(first.$schema ? { $schema: first.$schema } : {}),
    options: { ...first.options, mergedFrom: sources },
    reports: reports.flatMap((r) => r.reports),
  };
  const curl = reports.find((r) => r.curl)?.curl;
  if (curl)
    merged.curl = {
      ...curl,
      issues: [...new Map(reports.flatMap((r) => r.curl?.issues ?? []).map((i) => [i.id, i])).values()],
    };
  const withOpenapi = reports.filter((r) => r.openapi);
  if (withOpenapi.length > 0) {
    const paths: Record<string, Record<string, unknown>> = {};
    for (const report of withOpenapi) {
      for (const [path, methods] of Object.entries(report.openapi!.paths))
        paths[path] = { ...(paths[path] ?? {}), ...methods };
    }
    merged.openapi = { paths };
  }
  const graphql = reports.find((r) => r.graphql)?.graphql;
  if (graphql) merged.graphql = graphql;
  return merged;
}

export async function reportMerge(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgv(argv, { help: { type: 'boolean', short: 'h' } }, 'report merge');
  if (values.help) {
    io.stdout.write(reportMergeHelp);
    return 0;
  }
  if (positionals.length < 1)
    throw scannerError('invalid_argument', 'report merge needs at least one report (see scanner report merge --help)');
  const reports: Report[] = [];
  for (const file of positionals) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(resolve(io.cwd ?? process.cwd(), file), 'utf8'));
    } catch (error) {
      throw scannerError('invalid_report', `${file}: ${error instanceof SyntaxError ? 'not JSON' : 'cannot be read'}`);
    }
    assertValidReport(parsed, file);
    reports.push(parsed as Report);
  }
  const merged = mergeReports(reports, positionals);
  assertValidReport(merged, 'merged report');
  io.stdout.write(formatJson(merged));
  return 0;
}
