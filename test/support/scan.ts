/** Test helper: scan one local target with a few checks (their dependencies are added), so check tests read as sentences. */
import { curlFlagsFrom } from '../../scanner/curl-args.js';
import { operationFromCurl } from '../../scanner/curl-operation.js';
import { runScan } from '../../scanner/engine.js';
import type { CheckResult, ScanOutcome } from '../../scanner/scan-result.js';
import { loadChecks, type LoadedCheck } from '../../scanner/loader.js';
import { selectChecks } from '../../scanner/select-checks.js';

export interface ScanTargetOptions {
  /** Check ids to run; their dependencies are added automatically. */
  checks: string[];
  headers?: Record<string, string>;
  method?: string;
  body?: string;
  /** Options checks read (`jwtSecretsFile`…). */
  options?: Record<string, unknown>;
  /** Extra custom check directories. */
  checksDirs?: string[];
  concurrency?: number;
  /** `--allow-destructive`: destructive requests are sent (refused by default). */
  allowDestructive?: boolean;
  /** The identity canary's period (off unless given, as in the engine). */
  canaryEvery?: number;
}

const cache = new Map<string, Promise<LoadedCheck[]>>();

/** Built-in checks (plus `dirs`), loaded once per set of dirs for the whole test run. */
export function loadedChecks(dirs: string[] = []): Promise<LoadedCheck[]> {
  const key = dirs.join('\u0000');
  let loaded = cache.get(key);
  if (!loaded) {
    loaded = loadChecks({ dirs, includeBuiltIn: true });
    cache.set(key, loaded);
    loaded.catch(() => cache.delete(key));
  }
  return loaded;
}

export async function scanTarget(url: string, options: ScanTargetOptions): Promise<ScanOutcome> {
  const all = await loadedChecks(options.checksDirs);
  const { checks } = selectChecks(all, { scans: options.checks, severityThreshold: 0 });
  const operation = operationFromCurl(
    url,
    curlFlagsFrom({
      request: options.method,
      header: Object.entries(options.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
      'data-raw': options.body === undefined ? [] : [options.body],
    }),
  );
  return runScan({
    kind: 'curl',
    operations: [operation],
    checks,
    options: options.options,
    // Loopback targets: a generous rate keeps suites fast; pacing itself is tested in test/scanner.
    rate: { count: 1000, perMs: 1000 },
    concurrency: options.concurrency,
    ...(options.allowDestructive ? { allowDestructive: true } : {}),
    ...(options.canaryEvery !== undefined ? { canaryEvery: options.canaryEvery } : {}),
  });
}

/** The result of one check (on the first operation), failing loudly when the check did not run at all. */
export function resultOf(outcome: ScanOutcome, checkId: string): CheckResult {
  const result = outcome.results.find((r) => r.checkId === checkId);
  if (!result)
    throw new Error(`no result for ${checkId}; results: ${outcome.results.map((r) => r.checkId).join(', ')}`);
  return result;
}

/** Requests a check sent (its attempts). */
export function requestsOf(outcome: ScanOutcome, checkId: string): number {
  return resultOf(outcome, checkId).attempts.length;
}
