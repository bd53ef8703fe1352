/**
 * `--include-operations` / `--exclude-operations` (docs/architecture.md §2.6): globs over `METHOD /path` (the path template of an
 * OpenAPI operation, the URL path of a curl one) and over the operationId; exclude wins.
 */
import type { Operation } from './api.js';
import { scannerError } from './errors.js';
import { globToRegExp } from './select-checks.js';

function names(operation: Operation): string[] {
  return [
    `${operation.method.toUpperCase()} ${operation.path}`,
    operation.id,
    ...(operation.operationId ? [operation.operationId] : []),
  ];
}

const matches = (patterns: readonly RegExp[], operation: Operation): boolean =>
  names(operation).some((name) => patterns.some((p) => p.test(name)));

export function filterOperations(
  operations: readonly Operation[],
  include: readonly string[],
  exclude: readonly string[],
): Operation[] {
  const included = include.map(globToRegExp);
  const excluded = exclude.map(globToRegExp);
  const kept = operations.filter((op) => (included.length === 0 || matches(included, op)) && !matches(excluded, op));
  if (kept.length === 0) {
    const flags = [
      ...include.map((p) => `--include-operations '${p}'`),
      ...exclude.map((p) => `--exclude-operations '${p}'`),
    ].join(' ');
    throw scannerError(
      'invalid_argument',
      `nothing to scan: ${flags} leave none of the ${operations.length} operation${operations.length === 1 ? '' : 's'}`,
    );
  }
  return kept;
}
