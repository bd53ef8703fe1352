/**
 * `scanner scan openapi <file|URL> [--base-url U] [--security-schemes name=value ...]`: scans every operation of an
 * OpenAPI 3 description. A default token may come as the first line of standard input (when it is not a terminal).
 */
import type { CliIo } from '../cli-io.js';
import { curlFlagsFrom, curlHelp, curlOptions } from '../curl-args.js';
import { detectCredential, parseCookies, parseTargetUrl } from '../curl-operation.js';
import { scannerError } from '../errors.js';
import { executeScan } from '../execute-scan.js';
import { expandGraphqlEndpoints, isGraphqlEndpoint } from '../graphql/openapi-endpoints.js';
import { loadOpenApiDocument } from '../openapi/load-document.js';
import { operationsFromDocument } from '../openapi/operations.js';
import { CONVERTER } from '../openapi/swagger-2.js';
import { parseScanArgv } from '../scan-argv.js';
import { readFirstLine } from '../read-first-line.js';
import { firstSignsIn, identitiesFromOptions } from '../model/identity-options.js';

const REQUEST_FLAGS = new Set(['request', 'data', 'data-raw', 'data-binary', 'json']);
const openapiCurlOptions = Object.fromEntries(Object.entries(curlOptions).filter(([name]) => !REQUEST_FLAGS.has(name)));
const STDIN_TIMEOUT_MS = 2000;
/** Stands for the token the scanner obtains for the first identity before any check runs (scan-model.ts withToken). */
const PENDING_SIGN_IN = 'pending-sign-in';

export const scanOpenapiHelp = `Usage: scanner scan openapi <file|URL> [flags]

Scans every operation of an OpenAPI 3 or Swagger 2.0 description (JSON or YAML; Swagger 2.0 is converted to OpenAPI 3
first, and the report says so). Path parameters, required query/header parameters
and JSON bodies come from the examples, defaults or schemas (the same values on every run).

      --base-url <url>                 where the API lives (default: servers[0].url)
      --security-schemes <name=value>  a credential for a security scheme of the description (repeatable)
  Without --security-schemes, a token on the first line of standard input (piped, not a terminal) is used for every
  scheme; -H 'Authorization: Bearer …', -u and --oauth2-bearer give one too.
  With --as-other, path parameters the description gives no value for are first filled with object ids read from
  the first identity's answers (GET, else POST, on the parent path: {orderId} of /orders/{orderId} from GET /orders),
  so object-level checks (bola.*) probe objects the first identity owns.
  A POST operation on a /graphql (or /gql) path, or one its operationId, summary or tags call GraphQL, is scanned
  as scan graphql scans an endpoint: its schema is read and each root field becomes an operation.
  External or unresolvable $refs, no operations, no usable base URL, a description over 64 MiB or whose YAML aliases
  expand past 5,000,000 values: one line on stderr, exit 1.

${curlHelp.replace(/\n.*(--request|--data|--data-raw|--data-binary|--json) .*/g, '')}`;

/** The flags of scan openapi besides the scan-wide ones and the checks' options (a config file's keys too). */
export const scanOpenapiOptions: typeof curlOptions = {
  ...openapiCurlOptions,
  'base-url': { type: 'string' },
  'security-schemes': { type: 'string', multiple: true },
};

function schemeValues(raw: string[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (const entry of raw) {
    for (const pair of entry.split(',')) {
      const eq = pair.indexOf('=');
      if (eq <= 0) throw scannerError('invalid_argument', `--security-schemes ${entry}: expected name=value`);
      values[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
    }
  }
  return values;
}

export async function scanOpenapi(argv: string[], io: CliIo): Promise<number> {
  const args = await parseScanArgv(argv, io, 'scan openapi', scanOpenapiOptions, scanOpenapiHelp);
  if (!args) return 0;
  const { values, positionals, common } = args;
  if (positionals.length !== 1)
    throw scannerError('invalid_argument', 'scan openapi needs one file or URL (see scanner scan openapi --help)');
  const curl = curlFlagsFrom(values);
  const baseUrl = typeof values['base-url'] === 'string' ? parseTargetUrl(values['base-url']).href : undefined;
  const byScheme = schemeValues((values['security-schemes'] as string[] | undefined) ?? []);

  // Client-wide headers (-H, -A, -e, -b) go on every operation; a credential among them is the default token.
  const headers: Record<string, string[]> = {};
  for (const line of curl.headers) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw scannerError('invalid_argument', `-H ${line}: expected "Name: value"`);
    const name = line.slice(0, colon).trim();
    headers[name] = [...(headers[name] ?? []), line.slice(colon + 1).trim()];
  }
  const flagCredential = detectCredential(curl, headers);
  const identities = identitiesFromOptions(args.checkOptions, io);
  let fallback = flagCredential?.value;
  // The scanner signs the first identity in itself: every secured operation carries the token it will obtain.
  if (fallback === undefined && firstSignsIn(identities)) fallback = PENDING_SIGN_IN;
  if (fallback === undefined && Object.keys(byScheme).length === 0 && io.stdin)
    fallback = await readFirstLine(io.stdin, STDIN_TIMEOUT_MS);

  const loaded = await loadOpenApiDocument(positionals[0], io.cwd ?? process.cwd());
  const cookies = parseCookies(curl.cookies);
  const operations = operationsFromDocument(loaded, { baseUrl, credentials: { byScheme, fallback } }).map((op) => ({
    ...op,
    cookies: { ...cookies, ...op.cookies },
    headers: {
      ...headers,
      ...(curl.userAgent ? { 'User-Agent': [curl.userAgent] } : {}),
      ...(curl.referer ? { Referer: [curl.referer] } : {}),
      ...op.headers,
    },
  }));
  // A converted description is said once on stderr (the report's openapi.convertedFrom says it too).
  const convertedFrom = loaded.convertedFrom ? `${loaded.convertedFrom} (converted by ${CONVERTER})` : undefined;
  if (loaded.convertedFrom)
    io.stderr.write(
      `note: ${loaded.source} is a ${loaded.convertedFrom} description, converted to OpenAPI 3 by ${CONVERTER} before the scan\n`,
    );
  const asOther = args.checkOptions.asOther !== undefined || identities.some((i) => i.name === 'other');
  return executeScan(io, {
    command: 'scan openapi',
    kind: 'openapi',
    operations,
    document: loaded.document,
    identities,
    common,
    curl,
    checks: args,
    ...(convertedFrom ? { convertedFrom } : {}),
    // A GraphQL endpoint of the description is scanned field by field, as `scan graphql` scans it.
    ...(operations.some(isGraphqlEndpoint)
      ? {
          prepare: async (transport, signal) => {
            // REST operations' objects come from the API model; GraphQL fields get theirs here.
            const expanded = await expandGraphqlEndpoints(
              operations,
              {
                cwd: io.cwd ?? process.cwd(),
                objectIds: asOther,
                note: !common.noProgress ? (line) => io.stderr.write(`${line}\n`) : undefined,
              },
              transport,
              signal,
            );
            return expanded;
          },
        }
      : {}),
  });
}
