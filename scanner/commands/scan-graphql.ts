/**
 * `scanner scan graphql <endpoint> [--schema FILE]`: reads the endpoint's schema (introspection, its known bypasses,
 * field suggestions, or the file), then scans the endpoint and every root field as an operation
 * (`POST /graphql query.orders`) with the checks that apply to it (scanner/graphql/).
 */
import type { CliIo } from '../cli-io.js';
import { curlFlagsFrom, curlHelp, curlOptions } from '../curl-args.js';
import { operationFromCurl } from '../curl-operation.js';
import { scannerError } from '../errors.js';
import { executeScan } from '../execute-scan.js';
import { jsonBody } from '../graphql/graphql-request.js';
import { TYPENAME_DOCUMENT } from '../graphql/operations.js';
import { prepareGraphqlScan } from '../graphql/prepare-scan.js';
import { parseScanArgv } from '../scan-argv.js';

const REQUEST_FLAGS = new Set(['request', 'data', 'data-raw', 'data-binary', 'json']);
const graphqlCurlOptions = Object.fromEntries(Object.entries(curlOptions).filter(([name]) => !REQUEST_FLAGS.has(name)));

/** The flags of scan graphql besides the scan-wide ones and the checks' options (a config file's keys too). */
export const scanGraphqlOptions: typeof curlOptions = { ...graphqlCurlOptions, schema: { type: 'string' } };

export const scanGraphqlHelp = `Usage: scanner scan graphql <endpoint> [flags]

Scans a GraphQL endpoint and every root field of its schema: each query and mutation is an operation
(POST /graphql query.orders) sent as a JSON POST with its arguments as variables, filled by type (ids from the
first identity's own answers with --as-other). A token-typed argument (named token, jwt, accessToken…, or of a
JWT scalar) carries the scan's JWT, and the jwt.* checks attack it there as well as in the header. Mutations that
delete, reset or change the whole system are not sent without --allow-destructive. The schema comes from
introspection, else its known bypasses (a field before __schema, GET, another content type), else the names
validation errors and suggestions ("Did you mean …") give away, else --schema.

      --schema <file>                  the schema as SDL or introspection JSON, for endpoints that refuse both

${curlHelp.replace(/\n.*(--request|--data|--data-raw|--data-binary|--json) .*/g, '')}`;

export async function scanGraphql(argv: string[], io: CliIo): Promise<number> {
  const args = await parseScanArgv(argv, io, 'scan graphql', scanGraphqlOptions, scanGraphqlHelp);
  if (!args) return 0;
  const { values, positionals, common } = args;
  if (positionals.length !== 1)
    throw scannerError('invalid_argument', 'scan graphql needs one endpoint URL (see scanner scan graphql --help)');
  const curl = curlFlagsFrom(values);
  const base = operationFromCurl(positionals[0], {
    ...curl,
    method: 'POST',
    data: [],
    json: [jsonBody({ query: TYPENAME_DOCUMENT })],
  });
  const schemaFile = typeof values.schema === 'string' ? values.schema : undefined;
  return executeScan(io, {
    command: 'scan graphql',
    kind: 'graphql',
    operations: [base],
    common,
    curl,
    checks: args,
    prepare: (transport, signal) =>
      prepareGraphqlScan(
        base,
        {
          schemaFile,
          cwd: io.cwd ?? process.cwd(),
          objectIds: args.checkOptions.asOther !== undefined,
          note: !common.noProgress ? (line) => io.stderr.write(`${line}\n`) : undefined,
        },
        transport,
        signal,
      ),
  });
}
