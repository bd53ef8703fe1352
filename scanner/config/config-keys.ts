/**
 * The keys of a scanner config file, in the command line's own words: every long flag a scan command parses (its own,
 * the scan-wide ones, the loaded checks' options) as its camelCase name (`--report-format` → `reportFormat`), taken
 * from the very option table the command parses with, so a new flag is a new key with nothing else to change. Besides
 * them: `target` (the positional), `kind`, `headers` (the -H list), `identities` (the --identity list) and
 * `suppressions` (a list, or a --suppressions file).
 */
import type { ArgOptions } from '../../lib/settings/command-line.js';

// Re-exported for the commands that already import it from here (scanner/commands/scan-kinds.ts).
export type { ArgOptions };

/** Keys that are not one flag's camelCase name. */
const SPECIAL_KEYS = ['target', 'kind', 'headers', 'identities', 'suppressions'] as const;

/** Flags a file cannot hold: they say which file to read, or print help. */
const NOT_IN_FILE = new Set(['help', 'config', 'no-config']);

/** Flags whose key is not their camelCase name. */
const RENAMED: Record<string, string> = { header: 'headers', identity: 'identities' };

const camelCase = (flag: string): string => flag.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/** The config key of a long flag (`max-redirs` → `maxRedirs`, `header` → `headers`), or undefined for flags a file cannot hold. */
export function configKeyOf(flag: string): string | undefined {
  if (NOT_IN_FILE.has(flag)) return undefined;
  return RENAMED[flag] ?? camelCase(flag);
}

/** Every key the file may hold for `options`, with the flag it stands for (`target` and `kind` stand for none). */
export function configKeys(
  options: ArgOptions,
): Map<string, { flag?: string; type?: 'string' | 'boolean'; multiple?: boolean }> {
  const keys = new Map<string, { flag?: string; type?: 'string' | 'boolean'; multiple?: boolean }>();
  for (const key of SPECIAL_KEYS) keys.set(key, {});
  for (const [flag, option] of Object.entries(options)) {
    const key = configKeyOf(flag);
    if (key) keys.set(key, { flag, type: option.type, multiple: option.multiple === true });
  }
  return keys;
}
