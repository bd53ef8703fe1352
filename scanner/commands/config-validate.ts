/**
 * `scanner config validate [<file>]`: reads a scanner config file as the scan it describes would — YAML or JSON, every
 * key a flag of that scan (its own, the scan-wide ones, the options of the checks it loads), each value as the flag
 * takes it, every `${NAME}` set, its suppressions well formed — and prints "<file>: valid", or the problems on stderr
 * (exit 1). Nothing is sent.
 */
import type { CliIo } from '../cli-io.js';
import { DISCOVERED_NAMES } from '../config/config-file.js';
import type { ConfigKind } from '../config/config-values.js';
import { KINDS } from '../config/config-values.js';
import { inferKind } from '../config/infer-kind.js';
import { curlFlagsFrom } from '../curl-args.js';
import { scannerError } from '../errors.js';
import { parseArgv } from '../parse-argv.js';
import { parseScanArgv } from '../scan-argv.js';
import { scanCommand } from './scan-kinds.js';

const configValidateHelp = `Usage: scanner config validate [<file>]

Checks a scanner config file (default: ${DISCOVERED_NAMES[0]} in the working directory) without sending anything:
YAML or JSON; every key a long flag of the scan it describes in camelCase (reportFormat, severityThreshold, asOther…)
or one of target, kind, headers, identities, suppressions; each value as the flag would take it; every \${NAME} set in
the environment; suppressions well formed. Its JSON Schema: schemas/scanner-config/scanner-config.schema.json.
Prints "<file>: valid (…)" and exits 0, or one line naming every problem on stderr and exits 1.

  -h, --help   this help
`;

export async function configValidate(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgv(argv, { help: { type: 'boolean', short: 'h' } }, 'config validate');
  if (values.help) {
    io.stdout.write(configValidateHelp);
    return 0;
  }
  if (positionals.length > 1)
    throw scannerError('invalid_argument', 'config validate takes one file (see scanner config validate --help)');
  const fileArgs = positionals.length === 1 ? ['--config', positionals[0]] : [];
  // Which scan: the file's kind, else its target's; the scan's own parse then checks every key and value.
  const { scanConfigFile } = await import('../config/scan-config.js');
  const config = await scanConfigFile(fileArgs, io);
  if (!config)
    throw scannerError(
      'invalid_argument',
      `no ${DISCOVERED_NAMES[0]} here: name the file (scanner config validate <file>)`,
    );
  const target = typeof config.data.target === 'string' ? config.data.target : undefined;
  const kind: ConfigKind = (KINDS as readonly unknown[]).includes(config.data.kind)
    ? (config.data.kind as ConfigKind)
    : target
      ? inferKind(target)
      : 'curl';
  const command = await scanCommand(kind);
  const args = await parseScanArgv(fileArgs, io, command.name, command.options, command.help);
  if (!args) return 0;
  curlFlagsFrom(args.values);
  // The identities' credentials (env:NAME, file:PATH, providers) are read as the scan would read them.
  const { identitiesFromOptions } = await import('../model/identity-options.js');
  const identities = identitiesFromOptions(args.checkOptions, io).length;
  if (args.common.suppressions) {
    const { readSuppressionsFile } = await import('../config/suppressions-file.js');
    await readSuppressionsFile(args.common.suppressions, io.cwd ?? process.cwd());
  }
  const suppressions = (args.config?.suppressions?.length ?? 0) + (args.common.suppressions ? 1 : 0);
  io.stdout.write(
    `${config.shown}: valid (${command.name} of ${target ?? 'a target given on the command line'}${identities > 0 ? `, ${identities} identit${identities === 1 ? 'y' : 'ies'}` : ''}${suppressions > 0 ? ', with suppressions' : ''})\n`,
  );
  return 0;
}
