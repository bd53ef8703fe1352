/**
 * Runs one passive check the way a scan does: after a stand-in active check (`test.sender`) has sent the given
 * requests on the operation, so the passive check has answers to read and nothing else. A full scan's answers come
 * from every check; here the test decides exactly which ones exist.
 */
import { defineCheck, type Operation, type ProbeRequest } from '../../scanner/api.js';
import { curlFlagsFrom } from '../../scanner/curl-args.js';
import { operationFromCurl } from '../../scanner/curl-operation.js';
import { runScan } from '../../scanner/engine.js';
import type { ScanOutcome } from '../../scanner/scan-result.js';
import type { ScannedCheck } from '../../scanner/scan-result.js';
import { loadedChecks } from '../support/scan.js';

export interface PassiveScanOptions {
  /** What the stand-in check sends (default: the operation once, as given). */
  sends?: ProbeRequest[];
  headers?: Record<string, string>;
  method?: string;
  /** Extra operation fields an OpenAPI scan would set (`responseSchemas`, `path`…). */
  operation?: Partial<Operation>;
}

export async function scanPassively(
  url: string,
  checkId: string,
  options: PassiveScanOptions = {},
): Promise<ScanOutcome> {
  const passive = (await loadedChecks()).find((c) => c.definition.id === checkId)!;
  const sender: ScannedCheck = {
    file: 'test.sender',
    origin: 'custom',
    definition: defineCheck({
      id: 'test.sender',
      name: 'Test sender',
      issues: [],
      maxCvss: 0,
      async run(ctx) {
        for (const request of options.sends ?? [{}]) await ctx.http.send(request);
      },
    }),
  };
  const flags = curlFlagsFrom({
    request: options.method,
    header: Object.entries(options.headers ?? {}).map(([n, v]) => `${n}: ${v}`),
  });
  const operation = { ...operationFromCurl(url, flags), ...options.operation };
  return runScan({
    kind: 'openapi',
    operations: [operation],
    checks: [passive, sender],
    rate: { count: 1000, perMs: 1000 },
  });
}
