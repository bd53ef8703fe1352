/**
 * The scanner's command line: `run(argv, io)` dispatches to a command and returns the exit code (0 completed,
 * 1 fatal with one line on stderr and no stack, 2 findings with --only-scans-above-threshold). Never exits the process.
 * Commands are imported when dispatched, so `--version` and `--help` load nothing but this file.
 */
import { isAppError } from '../lib/app-error.js';
import type { CliIo } from './cli-io.js';
import { EXIT_FATAL } from './exit-codes.js';
import { VERSION } from './version.js';

export type { CliIo } from './cli-io.js';

const mainHelp = `Usage: scanner <command> [flags]

Scans HTTP APIs for security vulnerabilities (CVSS 4.0 scores, OWASP API Security Top 10 categories).

Commands:
  scan curl <URL> [curl flags]    scan one endpoint, flags as curl takes them
  scan openapi <file|URL>         scan every operation of an OpenAPI 3 description
  scan graphql <endpoint>         scan a GraphQL endpoint
  discover api <URL>              find OpenAPI/GraphQL/well-known/exposed paths and fingerprint the target
  scan [<URL|file>] [flags]       scan the target, or the config file's, as the kind it implies (or the file's kind)
  checks list                     list the checks (built-in and --checks-dir)
  config validate [<file>]        check a config file (default .gatehouse-scanner.yml) without scanning
  report validate <file>          validate a JSON report against the 2024-10 schemas
  report merge <file>...          join JSON reports (e.g. --shard slices) into one, on stdout

Run "scanner <command> --help" for the flags of a command. Scan commands also read their flags from a config file:
--config <file>, or .gatehouse-scanner.yml in the working directory (keys: the long flags in camelCase; flags win).
Exit codes: 0 completed · 1 fatal error · 2 findings with --only-scans-above-threshold · 3 incomplete scan with
--fail-on-incomplete.
  -h, --help      this help
  --version       the scanner's version
`;

type Command = (argv: string[], io: CliIo) => Promise<number>;

/** A command of the table: its module is imported only when it runs. */
interface LazyCommand {
  load(): Promise<Command>;
}

export const commands: Record<string, Record<string, LazyCommand>> = {
  scan: {
    curl: { load: () => import('./commands/scan-curl.js').then((m) => m.scanCurl) },
    openapi: { load: () => import('./commands/scan-openapi.js').then((m) => m.scanOpenapi) },
    graphql: { load: () => import('./commands/scan-graphql.js').then((m) => m.scanGraphql) },
  },
  discover: { api: { load: () => import('./commands/discover-api.js').then((m) => m.discoverApi) } },
  checks: { list: { load: () => import('./commands/checks-list.js').then((m) => m.checksList) } },
  config: { validate: { load: () => import('./commands/config-validate.js').then((m) => m.configValidate) } },
  report: {
    validate: { load: () => import('./commands/report-validate.js').then((m) => m.reportValidate) },
    merge: { load: () => import('./commands/report-merge.js').then((m) => m.reportMerge) },
  },
};

function groupHelp(group: string): string {
  const subcommands = Object.keys(commands[group]);
  const usage = `Usage: scanner ${group} <${subcommands.join('|')}> [flags]\n`;
  const fromConfig =
    group === 'scan'
      ? '       scanner scan [<URL|description file>] [flags]   the kind from the config file, else from the target\n'
      : '';
  return `${usage}${fromConfig}\nRun "scanner ${group} <command> --help" for details.\n`;
}

export async function run(argv: string[], io: CliIo): Promise<number> {
  const [group, sub, ...rest] = argv;
  try {
    if (group === undefined || group === '--help' || group === '-h' || group === 'help') {
      io.stdout.write(mainHelp);
      return group === undefined ? EXIT_FATAL : 0;
    }
    if (group === '--version' || group === '-V') {
      io.stdout.write(`${VERSION}\n`);
      return 0;
    }
    const family = Object.hasOwn(commands, group) ? commands[group] : undefined;
    if (!family) {
      io.stderr.write(`scanner: unknown command "${group}" (see scanner --help)\n`);
      return EXIT_FATAL;
    }
    // `scanner scan [<URL|description>] [flags]`: the kind comes from the config file or the target
    // (commands/scan-from-config.ts); a target is told from a command by its `://` or its description-file extension.
    if (
      group === 'scan' &&
      sub !== '--help' &&
      sub !== '-h' &&
      (sub === undefined || sub.startsWith('-') || sub.includes('://') || /\.(json|ya?ml)$/i.test(sub))
    )
      return await (await import('./commands/scan-from-config.js')).scanFromConfig(argv.slice(1), io);
    if (sub === undefined || sub === '--help' || sub === '-h') {
      io.stdout.write(groupHelp(group));
      return sub === undefined ? EXIT_FATAL : 0;
    }
    const command = Object.hasOwn(family, sub) ? family[sub] : undefined;
    if (!command) {
      io.stderr.write(`scanner: unknown command "${group} ${sub}" (see scanner ${group} --help)\n`);
      return EXIT_FATAL;
    }
    return await (
      await command.load()
    )(rest, io);
  } catch (error) {
    if (argv.includes('--debug') && error instanceof Error) {
      io.stderr.write(`scanner: ${error.stack ?? error.message}\n`);
    } else if (isAppError(error)) {
      io.stderr.write(`scanner: ${error.message.split('\n')[0]}\n`);
    } else {
      const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
      io.stderr.write(`scanner: internal error: ${message}\n`);
    }
    return EXIT_FATAL;
  }
}
