/**
 * `scanner scan [flags]` without a kind: the config file (--config FILE, or .gatehouse-scanner.yml here) says what to
 * scan — its `target`, and its `kind` (else inferred from the target: config/infer-kind.ts) — and the matching scan
 * command runs with the same flags.
 */
import type { CliIo } from '../cli-io.js';
import { KINDS, type ConfigKind } from '../config/config-values.js';
import { inferKind } from '../config/infer-kind.js';
import { scanConfigFile } from '../config/scan-config.js';
import { scannerError } from '../errors.js';
import { scanCommand } from './scan-kinds.js';

export async function scanFromConfig(argv: string[], io: CliIo): Promise<number> {
  const config = await scanConfigFile(argv, io);
  const target = config?.data.target;
  if (!config || typeof target !== 'string')
    throw scannerError(
      'invalid_argument',
      config
        ? `${config.shown} has no target: add target: <URL or description file>, or run scanner scan <${KINDS.join('|')}> <target>`
        : `scanner scan needs a kind (${KINDS.join(', ')}) and a target, or a config file with target: --config FILE, or .gatehouse-scanner.yml here (see scanner --help)`,
    );
  const kind = (KINDS as readonly unknown[]).includes(config.data.kind)
    ? (config.data.kind as ConfigKind)
    : inferKind(target);
  return (await scanCommand(kind)).run(argv, io);
}
