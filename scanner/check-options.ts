/**
 * Check options (docs/architecture.md §2.7): the declarations of the loaded checks merged into one list, as settings of
 * lib/settings (so their flags are parsed, validated and rendered by the same code as every other flag), the object
 * each check receives (only what it declared), and their report entries with secrets redacted. Everything here
 * derives from `CheckDefinition.options`; no option is named by hand.
 */
import { argOptions, flagsOf, type ArgOptions, type ArgValues } from '../lib/settings/command-line.js';
import { defineSettings, type SettingDeclaration } from '../lib/settings/declaration.js';
import { loadSettings } from '../lib/settings/load-settings.js';
import type { CheckDefinition, OptionDeclaration } from './api.js';
import { scannerError } from './errors.js';

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

function header(text: string): { name: string; value: string } {
  const colon = text.indexOf(':');
  if (colon <= 0 || !text.slice(colon + 1).trim())
    throw scannerError('invalid_argument', 'must be "Name: value", e.g. "Authorization: Bearer <token>"');
  return { name: text.slice(0, colon).trim(), value: text.slice(colon + 1).trim() };
}

/** A check's option as a setting of lib/settings. */
function asSetting(declaration: OptionDeclaration, secret: boolean): SettingDeclaration {
  const { flag, doc, valueName, min, max } = declaration;
  const common = { flag, doc, secret, ...(valueName ? { valueName } : {}) };
  const fallback = declaration.default === undefined ? {} : { default: declaration.default as never };
  switch (declaration.type) {
    case 'string':
      return { ...common, ...fallback, type: 'string' };
    case 'string[]':
      return { ...common, ...fallback, type: 'list', split: false };
    case 'integer':
      return { ...common, ...fallback, type: 'integer', min, max };
    case 'boolean':
      return { ...common, ...fallback, type: 'boolean' };
    case 'header':
      return {
        ...common,
        type: 'custom',
        valueName: valueName ?? "<'Name: value'>",
        parse: header,
        format: (value: { name: string; value: string }) => `${value.name}: ${value.value}`,
      };
  }
}

/** The declared options as settings, keyed by option name. */
export function optionSettings(declared: readonly DeclaredOption[]): Record<string, SettingDeclaration> {
  return Object.fromEntries(declared.map((d) => [d.declaration.name, asSetting(d.declaration, d.secret)]));
}

/** The `util.parseArgs` options of the declared flags; a flag the scanner already has is a load error. */
export function optionArgs(declared: readonly DeclaredOption[], reserved: ArgOptions): ArgOptions {
  for (const { declaration, checks } of declared) {
    if (reserved[declaration.flag.slice(2)])
      throw scannerError(
        'invalid_check',
        `${checks[0]}: option "${declaration.name}" uses ${declaration.flag}, which is a scanner flag`,
      );
  }
  return argOptions(optionSettings(declared), { help: false });
}

/**
 * The values the user gave for declared options, validated, keyed by option name. Defaults are not applied here:
 * each check gets its own declaration's default (optionsForCheck), and the report shows what was given.
 */
export function optionValuesFrom(values: ArgValues, declared: readonly DeclaredOption[]): Record<string, unknown> {
  const withoutDefaults = Object.fromEntries(
    Object.entries(optionSettings(declared)).map(([name, setting]) => [name, { ...setting, default: undefined }]),
  );
  const loaded = loadSettings(defineSettings(withoutDefaults), { flags: flagsOf(withoutDefaults, values) });
  // Booleans and lists are off and empty when not given: only what was given is a value here.
  return Object.fromEntries(
    Object.entries(loaded).filter(([, v]) => v !== undefined && v !== false && !(Array.isArray(v) && v.length === 0)),
  );
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
