/** The one error the settings loader throws: code `invalid_settings`, every problem in `fields`, one line of text. */
import { AppError, isAppError } from '../app-error.js';

export const INVALID_SETTINGS = 'invalid_settings';

/** One problem: `path` names the setting as it was given (`--port`, `IDP_PORT`, `port`) or the rule. */
export interface SettingsProblem {
  path: string;
  message: string;
}

export function settingsError(problems: readonly SettingsProblem[]): AppError {
  return new AppError(INVALID_SETTINGS, problems.map((p) => p.message).join('; '), {
    status: 400,
    fields: [...problems],
  });
}

/** The problems of a settings error, or undefined for any other error. */
export function settingsProblems(error: unknown): string[] | undefined {
  if (!isAppError(error) || error.code !== INVALID_SETTINGS) return undefined;
  return (error.fields ?? []).map((f) => f.message);
}
