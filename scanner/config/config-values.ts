/**
 * A config file read as a command line: each key becomes the values of its flag (config-keys.ts) exactly as
 * util.parseArgs would give them, so the scan validates them with the same code as typed flags. Flags given on the
 * command line win: a value of the file is used only for a flag the command line leaves out. Unknown keys, and values
 * of the wrong shape, are one error naming each key.
 */
import type { ArgOptions, ArgValues } from '../../lib/settings/command-line.js';
import { didYouMean } from '../../lib/settings/did-you-mean.js';
import { scannerError } from '../errors.js';
import { configKeys } from './config-keys.js';
import { checkSuppressions } from './suppressions-file.js';
import type { Suppression } from './suppressions.js';
import type { ConfigFile } from './config-file.js';

/** The scan kinds a file's `kind` may name (`scanner scan` runs that command). */
export const KINDS = ['curl', 'openapi', 'graphql'] as const;
export type ConfigKind = (typeof KINDS)[number];

export interface ConfigValues {
  /** Values by flag name, as util.parseArgs returns them. */
  values: ArgValues;
  /** Flag name → key, for the flags the file gave: messages about them name the key and the file. */
  keys: Map<string, string>;
  /** The file's `target`: the positional argument when none is typed. */
  target?: string;
  /** `suppressions:` given as a list (a string is the --suppressions file, in `values`). */
  suppressions?: Suppression[];
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
}

/** The credential providers an `identities:` entry may name, as `--identity` spells them (model/identity-spec.ts). */
const PROVIDERS: Record<string, string> = {
  login: 'login',
  clientCredentials: 'client-credentials',
  passwordGrant: 'password-grant',
};

/** One identity as an --identity value: a credential text, or `{role?, header | login | clientCredentials | passwordGrant}`. */
function identityValue(name: string, spec: unknown): string | undefined {
  if (typeof spec === 'string') return `${name}=${spec}`;
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) return undefined;
  const { role, header, ...rest } = spec as Record<string, unknown>;
  if (role !== undefined && typeof role !== 'string') return undefined;
  const head = `${name}${role ? `:${role}` : ''}=`;
  const given = Object.entries(rest);
  if (typeof header === 'string') return given.length === 0 ? `${head}${header}` : undefined;
  if (given.length !== 1 || !(given[0][0] in PROVIDERS)) return undefined;
  const [provider, fields] = given[0];
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return undefined;
  const pairs = Object.entries(fields).map(([k, v]) =>
    typeof v === 'string' || typeof v === 'number' ? `${k}=${v}` : undefined,
  );
  return pairs.every((p) => p !== undefined) ? `${head}${PROVIDERS[provider]}:${pairs.join('&')}` : undefined;
}

/**
 * `identities:` as --identity values (model/identity-spec.ts parses them): a list of `NAME[:role]=CREDENTIAL` texts or
 * of `{name, role?, header | login | clientCredentials | passwordGrant}`, or a mapping of names to a credential text
 * or to `{role?, header | login | …}`.
 */
function identityValues(value: unknown): string[] | undefined {
  const entries: (string | undefined)[] = Array.isArray(value)
    ? value.map((item: unknown) => {
        if (typeof item === 'string') return item;
        if (typeof item !== 'object' || item === null) return undefined;
        const { name, ...spec } = item as Record<string, unknown>;
        return typeof name === 'string' ? identityValue(name, spec) : undefined;
      })
    : typeof value === 'object' && value !== null
      ? Object.entries(value).map(([name, spec]) => identityValue(name, spec))
      : [undefined];
  return entries.every((e) => e !== undefined) ? entries : undefined;
}

/** Reads `config` against the option table of the command that will parse it. */
export function configValues(config: ConfigFile, options: ArgOptions): ConfigValues {
  const known = configKeys(options);
  const result: ConfigValues = { values: {}, keys: new Map() };
  const unknown: string[] = [];
  const problems: string[] = [];
  for (const [key, value] of Object.entries(config.data)) {
    const entry = known.get(key);
    if (!entry) {
      unknown.push(`${key}${didYouMean(key, known.keys())}`);
      continue;
    }
    if (key === 'target') {
      if (typeof value === 'string' && value.trim() !== '') result.target = value;
      else problems.push('target must be a URL or a description file');
      continue;
    }
    // `kind` chose the command already (commands/scan-from-config.ts): here it is only checked.
    if (key === 'kind') {
      if (!(KINDS as readonly unknown[]).includes(value)) problems.push(`kind must be one of ${KINDS.join(', ')}`);
      continue;
    }
    if (key === 'suppressions' && Array.isArray(value)) {
      result.suppressions = checkSuppressions(value, config.shown);
      continue;
    }
    if (!entry.flag) {
      problems.push(
        key === 'identities'
          ? 'identities needs a scanner whose checks declare --identity (scan identities)'
          : `${key} is not a setting of this command`,
      );
      continue;
    }
    let parsed: ArgValues[string];
    if (entry.type === 'boolean') parsed = typeof value === 'boolean' ? value : undefined;
    else if (key === 'identities') parsed = identityValues(value);
    else if (entry.multiple) {
      const list = Array.isArray(value) ? value.map(text) : [text(value)];
      parsed = list.every((v) => v !== undefined) ? list : undefined;
    } else parsed = text(value);
    if (parsed === undefined) {
      problems.push(
        key === 'identities'
          ? 'identities must list NAME[:role]=CREDENTIAL texts or {name, role?, header | login | clientCredentials | passwordGrant} entries (or map names to them)'
          : `${key} must be ${entry.type === 'boolean' ? 'true or false' : entry.multiple ? 'a list of texts (or one text)' : 'a text or a number'}`,
      );
      continue;
    }
    result.values[entry.flag] = parsed;
    result.keys.set(entry.flag, key);
  }
  if (unknown.length > 0)
    problems.unshift(
      `unknown key${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (the keys are the long flags in camelCase: see --help)`,
    );
  if (problems.length > 0) throw scannerError('invalid_argument', `${config.shown}: ${problems.join('; ')}`);
  return result;
}

/** The command line's values over the file's: a flag given on the command line replaces the file's value (a list too). */
export function overFile(commandLine: ArgValues, file: ConfigValues): ArgValues {
  const merged: ArgValues = { ...file.values };
  for (const [flag, value] of Object.entries(commandLine)) if (value !== undefined) merged[flag] = value;
  return merged;
}

/**
 * A problem message in the words of where each value came from: a flag the file gave is named by its key and the
 * file (`--concurrency must be ≥ 1` → `concurrency (scanner.yml) must be ≥ 1`); flags typed on the command line stay.
 */
export function inSourceTerms(
  message: string,
  file: ConfigValues | undefined,
  shown: string | undefined,
  commandLine: ArgValues,
): string {
  if (!file || !shown) return message;
  return message.replace(/--([a-z0-9][a-z0-9-]*)/g, (match, flag: string) => {
    const key = file.keys.get(flag);
    return key && commandLine[flag] === undefined ? `${key} (${shown})` : match;
  });
}
