/** What the engine's tests scan with: inline checks loaded as custom ones, operations as `scan curl` builds them. */
import { defineCheck, type CheckDefinition, type Operation } from '../../../../scanner/api.js';
import { curlFlagsFrom } from '../../../../scanner/curl-args.js';
import { operationFromCurl } from '../../../../scanner/curl-operation.js';
import type { CheckResult } from '../../../../scanner/scan-result.js';
import type { ScannedCheck } from '../../../../scanner/scan-result.js';

export const loaded = (definition: CheckDefinition): ScannedCheck => ({
  definition,
  file: `${definition.id}.ts`,
  origin: 'custom',
});

/** A check with no issues that does what `extra` says (by default nothing, so it passes). */
export const probe = (id: string, extra: Partial<CheckDefinition> = {}): CheckDefinition =>
  defineCheck({ id, name: id, issues: [], async run() {}, ...extra });

/** `scan curl [-X method] url -H header…`'s operation. */
export function curlOperation(url: string, options: { method?: string; headers?: string[] } = {}): Operation {
  return operationFromCurl(
    url,
    curlFlagsFrom({ header: options.headers ?? [], ...(options.method ? { request: options.method } : {}) }),
  );
}

/** Results as `check operation status: reason` lines, the way a reader compares them. */
export function lines(results: readonly CheckResult[]): string[] {
  return results.map(
    (r) =>
      `${r.checkId} ${r.operationId} ${r.status}${r.reason ? `: ${r.reason}` : ''}${r.incomplete ? ' (incomplete)' : ''}`,
  );
}
