/** `scanner discover api <URL>`: fingerprints the target and looks for OpenAPI, GraphQL, well-known and exposed paths. */
import type { CliIo } from '../cli-io.js';
import { curlFlagsFrom, curlHelp, curlOptions } from '../curl-args.js';
import { operationFromCurl } from '../curl-operation.js';
import { scannerError } from '../errors.js';
import { executeScan } from '../execute-scan.js';
import { parseScanArgv } from '../scan-argv.js';

const REQUEST_FLAGS = new Set(['request', 'data', 'data-raw', 'data-binary', 'json']);
const discoverCurlOptions = Object.fromEntries(
  Object.entries(curlOptions).filter(([name]) => !REQUEST_FLAGS.has(name)),
);

const discoverApiHelp = `Usage: scanner discover api <URL> [flags]

Runs the discover checks (fingerprint, OpenAPI, GraphQL, well-known, health-check and exposed-file paths) against
the target's origin with GET requests. The report's well-known table shows what was found.

${curlHelp.replace(/\n.*(--request|--data|--data-raw|--data-binary|--json) .*/g, '')}`;

export async function discoverApi(argv: string[], io: CliIo): Promise<number> {
  const args = await parseScanArgv(argv, io, 'discover api', discoverCurlOptions, discoverApiHelp);
  if (!args) return 0;
  const { values, positionals, common } = args;
  if (positionals.length !== 1)
    throw scannerError('invalid_argument', 'discover api needs one URL (see scanner discover api --help)');
  const curl = curlFlagsFrom(values);
  const operation = operationFromCurl(positionals[0], { ...curl, method: 'GET', data: [], json: [] });
  return executeScan(io, {
    command: 'discover api',
    kind: 'discover',
    operations: [operation],
    common,
    curl,
    checks: args,
  });
}
