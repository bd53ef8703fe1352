/**
 * The config file of one scan command line, read before its strict parse (like --checks-dir, it decides which checks
 * load, hence which flags exist): `--config FILE`, else `.gatehouse-scanner.yml` in the working directory unless
 * `--no-config`; none with `--help`, so help never depends on a file.
 */
import type { CliIo } from '../cli-io.js';
import { scannerError } from '../errors.js';
import { configPath, readConfigFile, type ConfigFile } from './config-file.js';

/** Every value of a flag that takes one, before the strict parse (`--flag v` and `--flag=v`). */
export function flagValuesIn(argv: readonly string[], flag: string): string[] {
  const found: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--') break;
    if (arg === flag && argv[i + 1] !== undefined) found.push(argv[(i += 1)]);
    else if (arg.startsWith(`${flag}=`)) found.push(arg.slice(flag.length + 1));
  }
  return found;
}

/**
 * The config file of `argv`. `discover: false` (discover api) reads only a file --config names: the one found here
 * describes a scan, whose keys (baseUrl, a kind's flags) another command would refuse.
 */
export async function scanConfigFile(
  argv: readonly string[],
  io: CliIo,
  { discover = true }: { discover?: boolean } = {},
): Promise<ConfigFile | undefined> {
  if (argv.includes('--help') || argv.includes('-h')) return undefined;
  const explicit = flagValuesIn(argv, '--config');
  if (explicit.length > 1) throw scannerError('invalid_argument', '--config: give one file');
  if (argv.includes('--no-config')) {
    if (explicit.length > 0) throw scannerError('invalid_argument', '--config and --no-config contradict each other');
    return undefined;
  }
  const cwd = io.cwd ?? process.cwd();
  if (explicit.length === 0 && !discover) return undefined;
  const path = configPath(explicit[0], cwd);
  return path ? readConfigFile(path, cwd, io.env ?? {}) : undefined;
}

/** The `checksDir` of a file (one directory or a list), for loading checks before the strict parse. */
export function checksDirsOf(file: ConfigFile | undefined): string[] {
  const value = file?.data.checksDir;
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  if (!list.every((v) => typeof v === 'string'))
    throw scannerError('invalid_argument', `${file!.shown}: checksDir must be a directory or a list of directories`);
  return list;
}
