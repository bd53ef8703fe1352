/** Runs discover checks the way `scanner discover api <URL>` does: a `discover` scan of one GET operation, no credential. */
import { emptyCurlFlags } from '../../scanner/curl-args.js';
import { operationFromCurl } from '../../scanner/curl-operation.js';
import { runScan, type ScanOutcome } from '../../scanner/engine.js';
import { selectChecks } from '../../scanner/select-checks.js';
import { loadedChecks } from '../support/scan.js';

export async function discoverTarget(url: string, checks: string[]): Promise<ScanOutcome> {
  const selected = selectChecks(await loadedChecks(), { scans: checks, severityThreshold: 0 }).checks;
  return runScan({
    kind: 'discover',
    operations: [operationFromCurl(url, emptyCurlFlags())],
    checks: selected,
    rate: { count: 1000, perMs: 1000 },
  });
}
