/** Which top-level config keys a change set adds, removes or changes, computed on the merged result it would produce. */
import { isDeepStrictEqual } from 'node:util';
import { mergeConfig } from '../../components/change-sets/merge-config.js';
import type { RegistrationConfig } from '../../components/registrations/registrations.model.js';

type DiffKind = 'added' | 'removed' | 'changed' | 'unchanged';

export interface DiffLine {
  key: string;
  kind: DiffKind;
  before?: unknown;
  after?: unknown;
}

/** The live config against the config approval would store (mergeConfig also drops `jwks`/`jwksUri` pairs). */
export function configDiff(live: RegistrationConfig, changes: Partial<RegistrationConfig>): DiffLine[] {
  const proposed = mergeConfig(live, changes);
  const keys = [...new Set([...Object.keys(live), ...Object.keys(proposed)])].sort();
  return keys.map((key) => {
    const inBefore = key in live && live[key] !== undefined;
    const inAfter = key in proposed && proposed[key] !== undefined;
    if (!inBefore) return { key, kind: 'added', after: proposed[key] };
    if (!inAfter) return { key, kind: 'removed', before: live[key] };
    const kind: DiffKind = isDeepStrictEqual(live[key], proposed[key]) ? 'unchanged' : 'changed';
    return { key, kind, before: live[key], after: proposed[key] };
  });
}
