/**
 * Which checks a scan runs: `--scans` / `--exclude-scans` globs over ids (exclude wins), then threshold rule 4
 * (`--only-scans-above-threshold` drops checks whose maxCvss is below the threshold), then rule 6: every dependency
 * of a kept check is added back, whatever its score or pattern, so dependency chains are never broken.
 */
import { scannerError } from './errors.js';
import { withDependencies } from './graph.js';
import type { LoadedCheck } from './loader.js';

export interface CheckSelection {
  scans?: string[];
  excludeScans?: string[];
  severityThreshold?: number;
  onlyScansAboveThreshold?: boolean;
}

export interface SelectedChecks {
  checks: LoadedCheck[];
  /** Ids that run only because a kept check depends on them. */
  pulledIn: string[];
}

/** A glob over check ids: `*` any run of characters, `?` one character; everything else literal. */
export function globToRegExp(pattern: string): RegExp {
  const source = pattern
    .split('')
    .map((ch) => (ch === '*' ? '.*' : ch === '?' ? '.' : ch.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

function matchesAny(id: string, patterns: string[]): boolean {
  return patterns.some((p) => globToRegExp(p).test(id));
}

export function selectChecks(all: LoadedCheck[], selection: CheckSelection = {}): SelectedChecks {
  const ids = all.map((c) => c.definition.id);
  const include = selection.scans ?? [];
  for (const pattern of include) {
    if (!ids.some((id) => globToRegExp(pattern).test(id)))
      throw scannerError('invalid_argument', `--scans ${pattern}: matches no check (see scanner checks list)`);
  }
  const threshold = selection.severityThreshold ?? 1;
  const kept = all.filter((c) => {
    const { id, maxCvss } = c.definition;
    if (include.length > 0 && !matchesAny(id, include)) return false;
    if (matchesAny(id, selection.excludeScans ?? [])) return false;
    if (selection.onlyScansAboveThreshold && maxCvss < threshold) return false;
    return true;
  });
  const keptIds = new Set(kept.map((c) => c.definition.id));
  const closure = withDependencies(
    keptIds,
    all.map((c) => c.definition),
  );
  return {
    checks: all.filter((c) => closure.has(c.definition.id)),
    pulledIn: [...closure].filter((id) => !keptIds.has(id)).sort(),
  };
}
