/** The scanner's error codes, listed once. Every fatal error becomes one line on stderr and exit code 1. */
import { AppError } from '../lib/app-error.js';

/** @public The table the codes are typed from; read by people, and by tooling that lists them. */
export const scannerErrorCodes = {
  invalid_argument: 'a command-line flag or argument is missing, unknown or has an invalid value',
  invalid_url: 'the target URL cannot be parsed or is not http(s)',
  invalid_spec: 'the OpenAPI description cannot be read, parsed or scanned (no paths, no absolute server URL)',
  unreachable: 'the target host refused the connection, does not resolve or timed out',
  tls_error: 'the TLS handshake failed (use -k to skip certificate verification, or --cacert)',
  unreadable_checks_dir: 'a --checks-dir does not exist or cannot be read',
  invalid_check: 'a check module is malformed (meta, id, export)',
  duplicate_check: 'two checks share an id (a custom check may not replace a built-in)',
  missing_dependency: 'a check depends on a check that does not exist or is not selected',
  check_cycle: 'checks depend on each other in a cycle',
  unknown_check: 'a fact was read from a check that is not a declared dependency',
  invalid_report: 'a report does not validate against schemas/report',
  report_transport_failed: 'the report could not be written to its file or URL',
  network_error: 'a request failed on the wire',
} as const;

export type ScannerErrorCode = keyof typeof scannerErrorCodes;

export function scannerError(
  code: ScannerErrorCode,
  message: string,
  options: { cause?: unknown; fields?: { path: string; message: string }[] } = {},
): AppError {
  return new AppError(code, message, { status: 1, ...options });
}
