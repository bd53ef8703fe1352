/** `scanner scan curl <URL> [curl flags] [common flags]`: scans one endpoint described the way curl would call it. */
import type { CliIo } from '../cli-io.js';
import { curlFlagsFrom, curlHelp, curlOptions } from '../curl-args.js';
import { operationFromCurl } from '../curl-operation.js';
import { scannerError } from '../errors.js';
import { executeScan } from '../execute-scan.js';
import { parseScanArgv } from '../scan-argv.js';

export const scanCurlHelp = `Usage: scanner scan curl <URL> [curl flags] [common flags]

Scans one endpoint. Paste a curl command's flags: the credential (-H 'Authorization: Bearer …', -u, --oauth2-bearer,
an API-key header) is detected and the checks attack it.

Example: scanner scan curl https://api.example.com/v1/items -H "Authorization: Bearer $TOKEN" --scans 'jwt.*'

${curlHelp}`;

export async function scanCurl(argv: string[], io: CliIo): Promise<number> {
  const args = await parseScanArgv(argv, io, 'scan curl', curlOptions, scanCurlHelp);
  if (!args) return 0;
  const { values, positionals, common } = args;
  if (positionals.length !== 1) {
    throw scannerError(
      'invalid_argument',
      positionals.length === 0
        ? 'scan curl needs a URL (see scanner scan curl --help)'
        : `scan curl takes one URL, got ${positionals.length}: ${positionals.join(' ')}`,
    );
  }
  const curl = curlFlagsFrom(values);
  const operation = operationFromCurl(positionals[0], curl);
  return executeScan(io, { command: 'scan curl', kind: 'curl', operations: [operation], common, curl, checks: args });
}
