/** Strict flag parsing (util.parseArgs): unknown flags and missing values are errors, never silently ignored. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { scannerError } from './errors.js';

type Options = NonNullable<ParseArgsConfig['options']>;
export type ParsedValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

export function parseArgv(
  argv: string[],
  options: Options,
  command: string,
): { values: ParsedValues; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
    return { values: values, positionals };
  } catch (error) {
    const code = (error as { code?: string }).code;
    const message = error instanceof Error ? error.message : String(error);
    const flag = /'([^']+)'/.exec(message)?.[1] ?? '';
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')
      throw scannerError('invalid_argument', `unknown flag ${flag} (see scanner ${command} --help)`);
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE')
      throw scannerError(
        'invalid_argument',
        `flag ${flag.replace(/ <value>$/, '')} needs a value (see scanner ${command} --help)`,
      );
    throw scannerError('invalid_argument', `${message.split('\n')[0]} (see scanner ${command} --help)`);
  }
}
