/**
 * Limits on an untrusted description (docs/architecture.md §2.10, hostile input): its size in bytes, the YAML aliases
 * it may use, its nesting, and how many values it holds once every alias is expanded — a 40-line YAML file whose
 * anchors refer to each other expands exponentially, and everything that walks the description would walk it all.
 */
import { scannerError } from '../errors.js';

/** Larger than the largest public descriptions (a few tens of MB); a file beyond it is refused before it is parsed. */
export const MAX_DESCRIPTION_BYTES = 64 * 1024 * 1024;
/** YAML alias nodes (`*name`) per document: descriptions use a handful, bombs use many. */
export const MAX_YAML_ALIASES = 10_000;
/** Nesting of collections, aliases aside. */
export const MAX_DEPTH = 256;
/** Values (objects, arrays, scalars) the description holds with every alias expanded. */
const MAX_EXPANDED_VALUES = 5_000_000;

const mib = (bytes: number): string => `${Math.round(bytes / (1024 * 1024))} MiB`;

export function tooLarge(where: string, bytes: number | undefined): Error {
  return scannerError(
    'invalid_spec',
    `${where}: larger than the ${mib(MAX_DESCRIPTION_BYTES)} a description may be${bytes !== undefined ? ` (${mib(bytes)})` : ''}; refused before parsing`,
  );
}

/**
 * Counts the values of a parsed document as if every shared (aliased) node were copied, in time linear in the
 * distinct nodes (each node's count is computed once), and refuses a document past the limit or one that contains
 * itself (a recursive alias).
 */
export function assertExpandedSize(where: string, document: unknown): void {
  const counted = new Map<object, number>();
  const open = new Set<object>();
  const count = (node: unknown): number => {
    if (typeof node !== 'object' || node === null) return 1;
    const known = counted.get(node);
    if (known !== undefined) return known;
    if (open.has(node))
      throw scannerError('invalid_spec', `${where}: a YAML alias refers to a value that contains it; refused`);
    open.add(node);
    let total = 1;
    for (const child of Object.values(node)) {
      total += count(child);
      if (total > MAX_EXPANDED_VALUES) break;
    }
    open.delete(node);
    counted.set(node, total);
    return total;
  };
  const total = count(document);
  if (total > MAX_EXPANDED_VALUES)
    throw scannerError(
      'invalid_spec',
      `${where}: expands to more than ${MAX_EXPANDED_VALUES.toLocaleString('en')} values (YAML aliases that multiply); refused`,
    );
}
