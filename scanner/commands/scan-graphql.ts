/**
 * `scanner scan graphql <endpoint>`: scans a GraphQL endpoint as `POST <endpoint>` with JSON (method and body flags
 * do not apply: the GraphQL checks build their own queries), plus the checks that run on any operation.
 */
import type { CliIo } from '../cli-io.js';
import { curlFlagsFrom, curlHelp, curlOptions } from '../curl-args.js';
import { operationFromCurl } from '../curl-operation.js';
import { scannerError } from '../errors.js';
import { executeScan } from '../execute-scan.js';
import { parseScanArgv } from '../scan-argv.js';

const REQUEST_FLAGS = new Set(['request', 'data', 'data-raw', 'data-binary', 'json']);
const graphqlCurlOptions = Object.fromEntries(Object.entries(curlOptions).filter(([name]) => !REQUEST_FLAGS.has(name)));

/** A harmless query every GraphQL server answers (GraphQL over HTTP: POST, application/json). */
const TYPENAME_QUERY = '{"query":"query{__typename}"}';

export const scanGraphqlHelp = `Usage: scanner scan graphql <endpoint> [flags]

Scans a GraphQL endpoint (introspection and the checks that apply to any operation), sent as POST with a JSON
{"query":"query{__typename}"} body.

${curlHelp.replace(/\n.*(--request|--data|--data-raw|--data-binary|--json) .*/g, '')}`;

export async function scanGraphql(argv: string[], io: CliIo): Promise<number> {
  const args = await parseScanArgv(argv, io, 'scan graphql', graphqlCurlOptions, scanGraphqlHelp);
  if (!args) return 0;
  const { values, positionals, common } = args;
  if (positionals.length !== 1)
    throw scannerError('invalid_argument', 'scan graphql needs one endpoint URL (see scanner scan graphql --help)');
  const curl = curlFlagsFrom(values);
  const operation = operationFromCurl(positionals[0], { ...curl, method: 'POST', data: [], json: [TYPENAME_QUERY] });
  return executeScan(io, {
    command: 'scan graphql',
    kind: 'graphql',
    operations: [operation],
    common,
    curl,
    checks: args,
  });
}
