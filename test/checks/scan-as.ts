/**
 * Runs checks in a non-curl scan kind: `discover` the way `scanner discover api <URL>` does (one GET operation, no
 * credential), `graphql` the way `scanner scan graphql <endpoint>` does when it reads no schema (the endpoint
 * operation alone).
 */
import { curlFlagsFrom } from '../../scanner/curl-args.js';
import { operationFromCurl } from '../../scanner/curl-operation.js';
import { runScan } from '../../scanner/engine.js';
import { graphqlOperations } from '../../scanner/graphql/operations.js';
import type { ScanKind, ScanOutcome } from '../../scanner/scan-result.js';
import { selectChecks } from '../../scanner/select-checks.js';
import { loadedChecks } from '../support/scan.js';

export async function scanAs(
  kind: ScanKind,
  url: string,
  checks: string[],
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<ScanOutcome> {
  const selected = selectChecks(await loadedChecks(), { scans: checks, severityThreshold: 0 }).checks;
  const flags = curlFlagsFrom({
    request: options.method,
    header: Object.entries(options.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
  });
  const operation = operationFromCurl(url, flags);
  return runScan({
    kind,
    operations: kind === 'graphql' ? graphqlOperations(undefined, operation, 'none') : [operation],
    checks: selected,
    rate: { count: 1000, perMs: 1000 },
  });
}

export const discoverTarget = (url: string, checks: string[]): Promise<ScanOutcome> => scanAs('discover', url, checks);
