/**
 * Check options (DESIGN §2.7): the declarations of the loaded checks merged into one list, their flags, `--help`
 * lines and parsed values, the object each check receives (only what it declared), and their report entries with
 * secrets redacted. Everything here derives from `CheckDefinition.options`; no option is named by hand.
 */
import type { ParseArgsConfig } from 'node:util';
import type { CheckDefinition, OptionDeclaration, OptionType } from './api.js';
import { scannerError } from './errors.js';

type ArgOptions = NonNullable<ParseArgsConfig['options']>;
type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

const REDACTED = '[redacted]';

/** One option as the scan sees it: the first declaration, and the checks that declare it. */
export interface DeclaredOption {
  declaration: OptionDeclaration;
  /** Ids of the checks that declare it, in load order. */
  checks: string[];
  secret: boolean;
}

export interface DeclaringCheck {
  definition: CheckDefinition;
  /** Shown in errors (relative path of the module). */
  shown: string;
}

/**
 * Merges the checks' declarations by name. One name must keep one type and one flag, and one flag one name, or it is
 * a load error naming both files. A secret stays secret if any declaration says so.
 */
export function collectOptions(checks: readonly DeclaringCheck[]): DeclaredOption[] {
  const byName = new Map<string, DeclaredOption & { shown: string }>();
  const byFlag = new Map<string, { name: string; shown: string }>();
  for (const { definition, shown } of checks) {
    for (const declaration of definition.options ?? []) {
      const seen = byName.get(declaration.name);
      if (seen) {
        const first = seen.declaration;
        if (first.type !== declaration.type || first.flag !== declaration.flag) {
          throw scannerError(
            'invalid_check',
            `${shown}: option "${declaration.name}" is declared as ${declaration.type} ${declaration.flag} here and as ${first.type} ${first.flag} by ${seen.shown}`,
          );
        }
        if (!seen.checks.includes(definition.id)) seen.checks.push(definition.id);
        seen.secret ||= declaration.secret === true;
        continue;
      }
      const flagOwner = byFlag.get(declaration.flag);
      if (flagOwner) {
        throw scannerError(
          'invalid_check',
          `${shown}: flag ${declaration.flag} of option "${declaration.name}" is already option "${flagOwner.name}" of ${flagOwner.shown}`,
        );
      }
      byFlag.set(declaration.flag, { name: declaration.name, shown });
      byName.set(declaration.name, {
        declaration,
        checks: [definition.id],
        secret: declaration.secret === true,
        shown,
      });
    }
  }
  return [...byName.values()].map(({ declaration, checks: ids, secret }) => ({ declaration, checks: ids, secret }));
}

const flagName = (declaration: OptionDeclaration): string => declaration.flag.slice(2);

/** The `util.parseArgs` options of the declared flags; a flag the scanner already has is a load error. */
export function optionArgs(declared: readonly DeclaredOption[], reserved: ArgOptions): ArgOptions {
  const args: ArgOptions = {};
  for (const { declaration, checks } of declared) {
    const name = flagName(declaration);
    if (reserved[name])
      throw scannerError(
        'invalid_check',
        `${checks[0]}: option "${declaration.name}" uses ${declaration.flag}, which is a scanner flag`,
      );
    args[name] =
      declaration.type === 'boolean'
        ? { type: 'boolean' }
        : { type: 'string', ...(declaration.type === 'string[]' ? { multiple: true } : {}) };
  }
  return args;
}

function header(text: string, flag: string): { name: string; value: string } {
  const colon = text.indexOf(':');
  if (colon <= 0 || !text.slice(colon + 1).trim())
    throw scannerError('invalid_argument', `${flag}: expected "Name: value", e.g. "Authorization: Bearer <token>"`);
  return { name: text.slice(0, colon).trim(), value: text.slice(colon + 1).trim() };
}

function integer(text: string, declaration: OptionDeclaration): number {
  const { min, max, flag } = declaration;
  const value = Number(text);
  if (!/^-?\d+$/.test(text) || (min !== undefined && value < min) || (max !== undefined && value > max)) {
    const range =
      min !== undefined && max !== undefined
        ? ` from ${min} to ${max}`
        : min !== undefined
          ? ` of at least ${min}`
          : max !== undefined
            ? ` up to ${max}`
            : '';
    throw scannerError('invalid_argument', `${flag} ${text}: expected a whole number${range}`);
  }
  return value;
}

/** The values the user gave for declared options, validated, keyed by option name (defaults are not applied here). */
export function optionValuesFrom(values: Values, declared: readonly DeclaredOption[]): Record<string, unknown> {
  const given: Record<string, unknown> = {};
  for (const { declaration } of declared) {
    const raw = values[flagName(declaration)];
    if (raw === undefined) continue;
    const text = Array.isArray(raw) ? raw.filter((v): v is string => typeof v === 'string') : raw;
    const parse: Record<OptionType, () => unknown> = {
      string: () => text,
      'string[]': () => text,
      boolean: () => raw === true,
      integer: () => integer(String(text), declaration),
      header: () => header(String(text), declaration.flag),
    };
    given[declaration.name] = parse[declaration.type]();
  }
  return given;
}

const VALUE_NAMES: Record<OptionType, string> = {
  string: '<value>',
  'string[]': '<value>',
  integer: '<n>',
  boolean: '',
  header: "<'Name: value'>",
};

/** The flag column of `--help` and the README (`--rate-limit-burst <n>`). */
export function flagUsage(declaration: OptionDeclaration): string {
  const value = declaration.valueName ?? VALUE_NAMES[declaration.type];
  return value ? `${declaration.flag} ${value}` : declaration.flag;
}

/** The doc with its default and range, as `--help` and the README show it. */
export function optionDoc(declaration: OptionDeclaration): string {
  const notes: string[] = [];
  if (declaration.type === 'integer' && (declaration.min !== undefined || declaration.max !== undefined))
    notes.push(`${declaration.min ?? ''}–${declaration.max ?? ''}`);
  if (declaration.default !== undefined) notes.push(`default ${JSON.stringify(declaration.default)}`);
  if (declaration.type === 'string[]') notes.push('repeatable');
  return notes.length > 0 ? `${declaration.doc} (${notes.join(', ')})` : declaration.doc;
}

/**
 * The options one check receives: its declarations' values (the user's, else the default), frozen. Reading an
 * option it did not declare throws, so a check that forgot a declaration fails its own tests instead of silently
 * reading `undefined` or another check's credential.
 */
export function optionsForCheck(
  definition: CheckDefinition,
  given: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> {
  const declared = new Set<string>();
  const values: Record<string, unknown> = {};
  for (const declaration of definition.options ?? []) {
    declared.add(declaration.name);
    const value = given[declaration.name] ?? declaration.default;
    if (value !== undefined) values[declaration.name] = value;
  }
  return new Proxy(Object.freeze(values), {
    get(target, key, receiver) {
      if (typeof key === 'string' && !declared.has(key) && key !== 'toJSON' && key !== 'then') {
        throw scannerError(
          'invalid_check',
          `${definition.id}: reads option "${key}", which is not in its options (declare it in defineCheck({ options }))`,
        );
      }
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}

/** Every secret value the user gave, for redaction wherever text leaves a check. */
export function secretValues(declared: readonly DeclaredOption[], given: Readonly<Record<string, unknown>>): string[] {
  const secrets: string[] = [];
  for (const { declaration, secret } of declared) {
    const value = given[declaration.name];
    if (!secret || value === undefined) continue;
    if (typeof value === 'string') secrets.push(value);
    else if (Array.isArray(value)) secrets.push(...value.filter((v): v is string => typeof v === 'string'));
    else if (typeof value === 'object' && value !== null && typeof (value as { value?: unknown }).value === 'string')
      secrets.push((value as { value: string }).value);
  }
  return secrets;
}

function reported(declaration: OptionDeclaration, secret: boolean, value: unknown): unknown {
  if (declaration.type === 'header') {
    const { name, value: text } = value as { name: string; value: string };
    return `${name}: ${secret ? REDACTED : text}`;
  }
  if (!secret) return value;
  return Array.isArray(value) ? value.map(() => REDACTED) : REDACTED;
}

/** The report's entries for the check options: given values, and defaults of the checks that run; secrets redacted. */
export function reportedOptions(
  declared: readonly DeclaredOption[],
  given: Readonly<Record<string, unknown>>,
  checkIds: readonly string[],
): Record<string, unknown> {
  const running = new Set(checkIds);
  const entries: Record<string, unknown> = {};
  for (const { declaration, checks, secret } of declared) {
    // A value the user gave is reported even if no running check reads it: the report shows what was asked.
    const value = given[declaration.name] ?? (checks.some((id) => running.has(id)) ? declaration.default : undefined);
    if (value === undefined) continue;
    entries[declaration.name] = reported(declaration, secret, value);
  }
  return entries;
}
