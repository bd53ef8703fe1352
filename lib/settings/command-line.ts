/**
 * Reads a command line against the declared flags (util.parseArgs, strict): flag values by setting key for the
 * loader, the positionals, `-h/--help`, and the values of any extra flags a command parses itself. An unknown flag, a
 * missing value or a stray argument is an `invalid_settings` error with one readable problem.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { SettingDeclarations } from './declaration.js';
import { didYouMean } from './did-you-mean.js';
import { settingsError } from './settings-error.js';

export type ArgOptions = NonNullable<ParseArgsConfig['options']>;
export type ArgValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

export interface CommandLine {
  /** Flag values by setting key (see `loadSettings`' `flags`). */
  flags: Record<string, unknown>;
  positionals: string[];
  help: boolean;
  /** Every parsed value by flag name, the extra flags' included. */
  values: ArgValues;
}

/** The util.parseArgs options of the declared flags (`help` included unless `help: false`). */
export function argOptions(settings: SettingDeclarations, { help = true } = {}): ArgOptions {
  const options: ArgOptions = help ? { help: { type: 'boolean', short: 'h' } } : {};
  for (const setting of Object.values(settings)) {
    if (!setting.flag) continue;
    options[setting.flag.slice(2)] = {
      type: setting.type === 'boolean' ? 'boolean' : 'string',
      ...(setting.type === 'list' ? { multiple: true } : {}),
      ...(setting.short ? { short: setting.short } : {}),
    };
  }
  return options;
}

/** One readable problem for a util.parseArgs error. */
function argumentProblem(error: unknown, options: ArgOptions): string {
  const { code, message } = error as { code?: string; message: string };
  const quoted = /'([^']+)'/.exec(message)?.[1] ?? '';
  const flag = quoted.replace(/ <value>$/, '').replace(/^-\w, /, '');
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')
    return `unknown option ${quoted}${didYouMean(
      quoted,
      Object.keys(options).map((name) => `--${name}`),
    )}`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE')
    return message.includes('does not take an argument') ? `${flag} takes no value` : `${flag} needs a value`;
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return `unexpected argument "${quoted}"`;
  return message.split('\n')[0];
}

/**
 * Parses `argv` with the declared flags plus `extra` (a command's own flags), strictly. Positionals are refused
 * unless `positionals` is true.
 */
export function readCommandLine(
  settings: SettingDeclarations,
  argv: readonly string[],
  { extra = {}, positionals = false }: { extra?: ArgOptions; positionals?: boolean } = {},
): CommandLine {
  const options = { ...argOptions(settings), ...extra };
  let parsed: { values: ArgValues; positionals: string[] };
  try {
    parsed = parseArgs({ args: [...argv], options, strict: true, allowPositionals: positionals });
  } catch (error) {
    const message = argumentProblem(error, options);
    throw settingsError([{ path: 'argv', message }]);
  }
  return {
    flags: flagsOf(settings, parsed.values),
    positionals: parsed.positionals,
    help: parsed.values.help === true,
    values: parsed.values,
  };
}

/** The values of the declared flags by setting key, from util.parseArgs values (by flag name). */
export function flagsOf(settings: SettingDeclarations, values: ArgValues): Record<string, unknown> {
  const flags: Record<string, unknown> = {};
  for (const [key, setting] of Object.entries(settings)) {
    if (setting.flag) flags[key] = values[setting.flag.slice(2)];
  }
  return flags;
}
