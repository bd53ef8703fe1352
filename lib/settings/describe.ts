/** What the docs say about one setting — its usage, default and notes — shared by `--help` and the README tables. */
import type { SettingDeclaration } from './declaration.js';
import { valueType } from './value-types.js';

/** `-h, --help`, `--port <port>`, or the variable for a setting without a flag. */
export function usageOf(setting: SettingDeclaration): string {
  if (!setting.flag) return setting.env ?? '';
  const value = setting.valueName ?? valueType(setting).valueName(setting);
  return `${setting.short ? `-${setting.short}, ` : ''}${setting.flag}${value ? ` ${value}` : ''}`;
}

/** The default as text (`defaultDoc` when declared); undefined when there is none worth showing. */
export function defaultText(setting: SettingDeclaration): string | undefined {
  if (setting.defaultDoc !== undefined) return setting.defaultDoc;
  const value: unknown = setting.type === 'boolean' ? (setting.default ?? false) : setting.default;
  if (value === undefined || typeof value === 'function') return undefined;
  if (Array.isArray(value) && value.length === 0) return undefined;
  return valueType(setting).format(value, setting);
}

/**
 * Range, choices (when the usage does not show them), repetition and secret files: the notes after the doc, with
 * names written by `name` (the README puts them in backticks).
 */
export function notesOf(setting: SettingDeclaration, name: (text: string) => string = (text) => text): string[] {
  const notes: string[] = [];
  if (
    (setting.type === 'integer' || setting.type === 'number') &&
    (setting.min !== undefined || setting.max !== undefined)
  )
    notes.push(
      setting.min !== undefined && setting.max !== undefined
        ? `from ${setting.min} to ${setting.max}`
        : setting.min !== undefined
          ? `at least ${setting.min}`
          : `at most ${setting.max}`,
    );
  const choices = setting.type === 'enum' || setting.type === 'list' ? setting.choices : undefined;
  // The usage shows the choices (`<opaque|jwt>`) unless there is no flag or it names the value otherwise.
  if (choices && (!setting.flag || setting.valueName)) notes.push(`one of ${choices.map(name).join(', ')}`);
  if (setting.type === 'list') {
    if (setting.flag) notes.push('repeatable');
    if (setting.env) notes.push('comma-separated in the environment');
  }
  if (setting.secret && setting.env) notes.push(`or ${name(`${setting.env}_FILE`)}: a file holding it`);
  return notes;
}
