/** The kinds of scan a check runs in: the `scanKinds` it lists, or, left out, every kind but `discover`. */
import type { CheckDefinition } from './api.js';
import type { ScanKind } from './scan-result.js';

const DEFAULT_SCAN_KINDS: readonly ScanKind[] = ['curl', 'openapi', 'graphql'];

export function scanKindsOf(definition: Pick<CheckDefinition, 'scanKinds'>): readonly ScanKind[] {
  return definition.scanKinds ?? DEFAULT_SCAN_KINDS;
}

export function runsIn(definition: Pick<CheckDefinition, 'scanKinds'>, kind: ScanKind): boolean {
  return scanKindsOf(definition).includes(kind);
}
