/**
 * A setting's environment variable, and for a secret `<NAME>_FILE`: the path of a file holding it (a mounted secret,
 * read once at start, trailing whitespace dropped). Setting both is a problem, so a forgotten variable cannot win
 * silently over the file an operator mounted.
 */
import { readFileSync } from 'node:fs';
import type { SettingDeclaration } from './declaration.js';
import type { SettingsProblem } from './settings-error.js';

/** `{ value, as, text }` when the variable (or its file) is set; an empty variable counts as unset. */
export function fromEnvironment(
  setting: SettingDeclaration,
  name: string,
  env: Readonly<Record<string, unknown>>,
): { value: unknown; as: string; text: boolean } | SettingsProblem | undefined {
  const set = (value: unknown) => value !== undefined && value !== null && value !== '';
  const value = env[name];
  const file = setting.secret ? env[`${name}_FILE`] : undefined;
  if (set(file)) {
    if (set(value)) return { path: name, message: `set ${name} or ${name}_FILE, not both` };
    try {
      return { value: readFileSync(String(file), 'utf8').replace(/\s+$/, ''), as: `${name}_FILE`, text: true };
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      return { path: `${name}_FILE`, message: `${name}_FILE: cannot read ${String(file)} (${reason})` };
    }
  }
  if (!set(value)) return undefined;
  return typeof value === 'string' ? { value: value.trim(), as: name, text: true } : { value, as: name, text: false };
}
