/**
 * `scanner scan [<target>] [flags]` without a kind: the target typed (a URL or a description file), else the config
 * file's `target` (--config FILE, or .gatehouse-scanner.yml here), is scanned as the file's `kind` says, else as the
 * target implies (config/infer-kind.ts); the matching scan command runs with the same arguments.
 */
import type { CliIo } from '../cli-io.js';
import { KINDS, type ConfigKind } from '../config/config-values.js';
import { inferKind } from '../config/infer-kind.js';
import { scanConfigFile } from '../config/scan-config.js';
import { scannerError } from '../errors.js';
import { scanCommand } from './scan-kinds.js';

export async function scanFromConfig(argv: string[], io: CliIo): Promise<number> {
  const config = await scanConfigFile(argv, io);
  const typed = argv[0] !== undefined && !argv[0].startsWith('-') ? argv[0] : undefined;
  const target = typed ?? config?.data.target;
  if (typeof target !== 'string')
    throw scannerError(
      'invalid_argument',
      config
        ? `${config.shown} has no target: add target: <URL or description file>, or run scanner scan <${KINDS.join('|')}> <target>`
        : `scanner scan needs a kind (${KINDS.join(', ')}) and a target, or a config file with target: --config FILE, or .gatehouse-scanner.yml here (see scanner --help)`,
    );
  const kind = (KINDS as readonly unknown[]).includes(config?.data.kind)
    ? (config!.data.kind as ConfigKind)
    : inferKind(target);
  return (await scanCommand(kind)).run(argv, io);
}
