/**
 * Parses a scan command's argv with the flags of the checks it could run: the checks (built-in and every
 * `--checks-dir`) load first, so their declared options are flags like any other — strictly parsed, validated and
 * listed by `--help`, custom checks' included.
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
}

/** `--checks-dir` values before the strict parse, which needs the checks' flags to know every flag. */
function checksDirsIn(argv: readonly string[]): string[] {
  const dirs: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--') break;
    if (arg === '--checks-dir' && argv[i + 1] !== undefined) dirs.push(argv[(i += 1)]);
    else if (arg.startsWith('--checks-dir=')) dirs.push(arg.slice('--checks-dir='.length));
  }
  return dirs;
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

/** The scan-wide flags and the check options from the parsed values, every problem of both in one error. */
function settingsFrom(values: ParsedValues, declared: readonly DeclaredOption[]) {
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
  if (!common || !checkOptions) throw scannerError('invalid_argument', problems.join('; '));
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
  const checks = await loadChecks({ dirs: checksDirsIn(argv), cwd: io.cwd });
  const declared = collectOptions(checks.map((c) => ({ definition: c.definition, shown: c.file })));
  const reserved = { ...base, ...commonOptions };
  const { values, positionals } = parseArgv(argv, { ...reserved, ...optionArgs(declared, reserved) }, command);
  // The pre-scan read `--checks-dir` without knowing which flags take values; a disagreement would load other checks.
  const parsedDirs = (values['checks-dir'] as string[] | undefined) ?? [];
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
  return { values, positionals, ...settingsFrom(values, declared), checks, declared };
}
