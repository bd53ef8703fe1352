/**
 * The settings loader: reads each declared setting from code, a flag or the environment (in that order; a flag beats
 * its variable), applies defaults, validates, runs the part's rules, and returns the settings frozen — or throws one
 * `invalid_settings` error listing every problem, each naming the setting the way it was given.
 */
import type { SettingDeclaration, SettingDeclarations, SettingsOf, SettingsSchema } from './declaration.js';
import { didYouMean } from './did-you-mean.js';
import { fromEnvironment } from './from-environment.js';
import { settingsError, type SettingsProblem } from './settings-error.js';
import { valueType } from './value-types.js';

export interface SettingsSources {
  /** Values given in code (`createIdp(options)`), by setting key: typed values; an undeclared key is a problem. */
  given?: Readonly<Record<string, unknown>>;
  /** Flag values by setting key, as `readCommandLine` returns them. */
  flags?: Readonly<Record<string, unknown>>;
  /** Environment variables: text, or values of the setting's type (a worker's JSON variables). */
  env?: Readonly<Record<string, unknown>>;
}

/** A value found for a setting, the name it was given under, and whether it came as text. */
interface Found {
  value: unknown;
  as: string;
  text: boolean;
}

/** ` (got "…")` after a problem, unless the setting is a secret or the problem already quotes the value. */
function shown(value: unknown, found: Found, setting: SettingDeclaration, problem: string): string {
  if (setting.secret || problem.includes('(got ')) return '';
  const raw = found.text ? String(value) : JSON.stringify(value);
  return ` (got ${found.text ? `"${raw}"` : raw.length > 60 ? `${raw.slice(0, 57)}...` : raw})`;
}

/** Flag values: a list gathers every repetition (split on commas unless `split: false`); others their last value. */
function fromFlag(setting: SettingDeclaration, raw: unknown): Found {
  const as = setting.flag!;
  if (setting.type === 'boolean') return { value: raw === true || raw === 'true', as, text: false };
  if (setting.type === 'list') {
    const items = (Array.isArray(raw) ? raw : [raw]).map(String);
    const split = setting.split === false ? items : items.flatMap((item) => item.split(',').map((i) => i.trim()));
    return { value: split.filter(Boolean), as, text: false };
  }
  return { value: Array.isArray(raw) ? String(raw.at(-1)) : String(raw), as, text: true };
}

function find(key: string, setting: SettingDeclaration, sources: SettingsSources): Found | SettingsProblem | undefined {
  const given = sources.given?.[key];
  if (given !== undefined) return { value: given, as: key, text: false };
  const flag = setting.flag && sources.flags?.[key];
  if (flag !== undefined && flag !== false && flag !== '') return fromFlag(setting, flag);
  if (setting.env && sources.env) return fromEnvironment(setting, setting.env, sources.env);
  return undefined;
}

/** How a setting that was not given is named in a problem: in the terms of the sources being read. */
function defaultName(key: string, setting: SettingDeclaration, sources: SettingsSources): string {
  if (sources.given) return key;
  if (sources.flags && setting.flag) return setting.flag;
  if (sources.env && setting.env) return setting.env;
  return setting.flag ?? setting.env ?? key;
}

function defaultOf(setting: SettingDeclaration, values: Record<string, unknown>): unknown {
  const declared: unknown = setting.default;
  if (typeof declared === 'function') return (declared as (settings: Record<string, unknown>) => unknown)(values);
  if (declared !== undefined) return declared;
  if (setting.type === 'boolean') return false;
  if (setting.type === 'list') return Object.freeze([]);
  return undefined;
}

export function loadSettings<D extends SettingDeclarations>(
  schema: SettingsSchema<D>,
  sources: SettingsSources,
): SettingsOf<D> {
  const declared: SettingDeclarations = schema.settings;
  const problems: SettingsProblem[] = [];
  for (const key of Object.keys(sources.given ?? {})) {
    if (!Object.hasOwn(declared, key) && sources.given![key] !== undefined)
      problems.push({ path: key, message: `unknown option ${key}${didYouMean(key, Object.keys(declared))}` });
  }
  const values: Record<string, unknown> = {};
  const givenAs = new Map<string, string>();
  for (const [key, setting] of Object.entries(declared)) {
    const found = find(key, setting, sources);
    if (found && 'path' in found) {
      problems.push(found);
      continue;
    }
    if (!found) {
      values[key] = defaultOf(setting, values);
      if (values[key] === undefined && setting.required) {
        const name = defaultName(key, setting, sources);
        problems.push({ path: name, message: `${name} is required: ${setting.doc}` });
      }
      continue;
    }
    givenAs.set(key, found.as);
    try {
      const type = valueType(setting);
      const value = found.text ? type.parse(found.value as string, setting) : type.accept(found.value, setting);
      const problem = (setting.check as ((value: unknown) => string | undefined) | undefined)?.(value);
      if (problem) throw new Error(problem);
      values[key] = value;
    } catch (error) {
      const problem = (error as Error).message;
      problems.push({
        path: found.as,
        message: `${found.as} ${problem}${shown(found.value, found, setting, problem)}`,
      });
    }
  }
  if (problems.length === 0) {
    const name = (key: string) => givenAs.get(key) ?? defaultName(key, declared[key], sources);
    const settings = values as SettingsOf<D>;
    for (const [rule, check] of Object.entries(schema.rules)) {
      const message = check(settings, name);
      if (message) problems.push({ path: rule, message });
    }
  }
  if (problems.length) throw settingsError(problems);
  return Object.freeze(values) as SettingsOf<D>;
}
