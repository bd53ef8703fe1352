/**
 * Runs checks over an OpenAPI description held in memory, the way `scanner scan openapi` does (operations with their
 * declared inputs; the API model built from the whole description, its identities learned before the checks), so a
 * check test can show what the description adds to a curl scan.
 */
import type { Operation } from '../../scanner/api.js';
import { runScan } from '../../scanner/engine.js';
import type { ScanOutcome } from '../../scanner/scan-result.js';
import type { OpenApiDocument } from '../../scanner/openapi/load-document.js';
import { operationsFromDocument } from '../../scanner/openapi/operations.js';
import { selectChecks } from '../../scanner/select-checks.js';
import { loadedChecks } from '../support/scan.js';

export interface ScanDocumentOptions {
  checks: string[];
  /** Security scheme name → value. */
  credentials?: Record<string, string>;
  options?: Record<string, unknown>;
  /** Keep only these operation ids (after ids were filled). */
  only?: string[];
}

export async function scanDocument(
  document: OpenApiDocument,
  baseUrl: string,
  options: ScanDocumentOptions,
): Promise<ScanOutcome & { prepared: Operation[] }> {
  const selected = selectChecks(await loadedChecks(), { scans: options.checks, severityThreshold: 0 }).checks;
  const all = operationsFromDocument(
    { document, source: 'memory', remote: false },
    { baseUrl, credentials: { byScheme: options.credentials ?? {} } },
  );
  const rate = { count: 1000, perMs: 1000 };
  const operations = options.only ? all.filter((op) => options.only!.includes(op.id)) : all;
  const outcome = await runScan({
    kind: 'openapi',
    operations,
    model: { operations: all, document },
    checks: selected,
    options: options.options,
    rate,
  });
  return { ...outcome, prepared: outcome.operations };
}
