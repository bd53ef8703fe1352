/**
 * Parses a scan command's argv with the flags of the checks it could run: the checks (built-in and every
 * `--checks-dir`) load first, so their declared options are flags like any other — strictly parsed, validated and
 * listed by `--help`, custom checks' included. A config file (config/) is read first and its keys become values of
 * the same flags, under the typed ones.
 */
import type { ParseArgsConfig } from 'node:util';
import type { CliIo } from './cli-io.js';
import { renderHelp } from '../lib/settings/render-help.js';
import { settingsProblems } from '../lib/settings/settings-error.js';
import { collectOptions, optionArgs, optionSettings, optionValuesFrom, type DeclaredOption } from './check-options.js';
import { commonFlagsFrom, commonHelp, commonOptions, exitCodesHelp, type CommonFlags } from './common-args.js';
import { scannerError } from './errors.js';
import { loadChecks, type LoadedCheck } from './loader.js';
import { parseArgv, type ParsedValues } from './parse-argv.js';
import type { ConfigFile } from './config/config-file.js';
import { configValues, inSourceTerms, KINDS, overFile, type ConfigValues } from './config/config-values.js';
import { checksDirsOf, flagValuesIn, scanConfigFile } from './config/scan-config.js';
import type { Suppression } from './config/suppressions.js';

type Options = NonNullable<ParseArgsConfig['options']>;

export interface ScanArgs {
  values: ParsedValues;
  positionals: string[];
  common: CommonFlags;
  /** Every loaded check, validated (the selection happens later). */
  checks: LoadedCheck[];
  declared: DeclaredOption[];
  /** The values given for check options, by option name. */
  checkOptions: Record<string, unknown>;
  /** What the config file the command line was read with (config/scan-config.ts) holds beyond flags. */
  config?: { suppressions?: Suppression[] };
}

/** `--checks-dir` values before the strict parse, which needs the checks' flags to know every flag. */
function checksDirsIn(argv: readonly string[]): string[] {
  return flagValuesIn(argv, '--checks-dir');
}

/** The `--help` section of the loaded checks' options, each with the checks that read it. */
function checkOptionsHelp(declared: readonly DeclaredOption[]): string {
  const sorted = [...declared].sort((a, b) => (a.declaration.flag < b.declaration.flag ? -1 : 1));
  const readBy = new Map(sorted.map((d) => [d.declaration.name, d.checks]));
  return renderHelp(optionSettings(sorted), {
    heading: 'Check options (declared by the loaded checks):',
    more: (name) => [`read by ${readBy.get(name)!.join(', ')}`],
    help: false,
  });
}

/**
 * The scan-wide flags and the check options from the parsed values, every problem of both in one error; a value the
 * config file gave is named by its key and the file.
 */
function settingsFrom(
  values: ParsedValues,
  declared: readonly DeclaredOption[],
  source: { file?: ConfigValues; shown?: string; commandLine: ParsedValues },
) {
  const problems: string[] = [];
  const attempt = <T>(load: () => T): T | undefined => {
    try {
      return load();
    } catch (error) {
      const found = settingsProblems((error as { cause?: unknown }).cause ?? error);
      if (!found) throw error;
      problems.push(...found);
      return undefined;
    }
  };
  const common = attempt(() => commonFlagsFrom(values));
  const checkOptions = attempt(() => optionValuesFrom(values, declared));
  if (!common || !checkOptions)
    throw scannerError(
      'invalid_argument',
      inSourceTerms(problems.join('; '), source.file, source.shown, source.commandLine),
    );
  return { common, checkOptions };
}

/**
 * Loads the checks, parses `argv` with `base` (the command's own flags), the scan-wide flags and the checks' options.
 * With `--help`, writes `usage` plus the flag sections and returns `undefined`.
 */
export async function parseScanArgv(
  argv: string[],
  io: CliIo,
  command: string,
  base: Options,
  usage: string,
): Promise<ScanArgs | undefined> {
  const config: ConfigFile | undefined = await scanConfigFile(argv, io, { discover: command.startsWith('scan ') });
  const typedDirs = checksDirsIn(argv);
  const checks = await loadChecks({ dirs: typedDirs.length > 0 ? typedDirs : checksDirsOf(config), cwd: io.cwd });
  const declared = collectOptions(checks.map((c) => ({ definition: c.definition, shown: c.file })));
  const reserved = { ...base, ...commonOptions };
  const options = { ...reserved, ...optionArgs(declared, reserved) };
  const typed = parseArgv(argv, options, command);
  // The file's values under the typed ones: a flag typed here replaces the file's value (lists too).
  // A file written for another kind of scan would mostly fail as unknown keys: name the real mismatch first.
  const fileKind = config?.data.kind;
  if (config && typeof fileKind === 'string' && KINDS.some((k) => k === fileKind) && command.startsWith('scan ')) {
    if (command !== `scan ${fileKind}`)
      throw scannerError(
        'invalid_argument',
        `${config.shown} is for scan ${fileKind} (its kind), not ${command}: run scanner scan ${fileKind}, or scanner scan`,
      );
  }
  const file = config ? configValues(config, options) : undefined;
  const values = file ? overFile(typed.values, file) : typed.values;
  const positionals = typed.positionals.length === 0 && file?.target ? [file.target] : typed.positionals;
  // The pre-scan read `--checks-dir` without knowing which flags take values; a disagreement would load other checks.
  const parsedDirs = (typed.values['checks-dir'] as string[] | undefined) ?? [];
  if (parsedDirs.join('\u0000') !== checksDirsIn(argv).join('\u0000')) {
    throw scannerError(
      'invalid_argument',
      `--checks-dir: give each directory as --checks-dir <dir> (see scanner ${command} --help)`,
    );
  }
  if (values.help) {
    io.stdout.write(`${usage}\n\n${commonHelp}\n\n${checkOptionsHelp(declared)}\n\n${exitCodesHelp}\n`);
    return undefined;
  }
  return {
    values,
    positionals,
    ...settingsFrom(values, declared, { file, shown: config?.shown, commandLine: typed.values }),
    checks,
    declared,
    ...(file?.suppressions ? { config: { suppressions: file.suppressions } } : {}),
  };
}
