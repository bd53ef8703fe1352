/** `scanner checks list [--checks-dir D] [--format table|json]`: every check with its score, dependencies and origin. */
import Table from 'cli-table3';
import type { CliIo } from '../cli-io.js';
import { scannerError } from '../errors.js';
import { loadChecks } from '../loader.js';
import { parseArgv } from '../parse-argv.js';
import { scanKindsOf } from '../scan-kinds.js';

const checksListHelp = `Usage: scanner checks list [--checks-dir <dir>]... [--format table|json]

Lists the built-in checks and those of each --checks-dir: id, name, maximum CVSS 4.0 score, dependencies, origin
(and, with --format json, the flags of the options each check declares).
Every check is validated first: a malformed custom check is an error naming its file (exit 1).

  --checks-dir <dir>   load custom checks from a directory too (repeatable)
  --format <f>         table (default) or json
  -h, --help           this help
`;

export async function checksList(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgv(
    argv,
    {
      'checks-dir': { type: 'string', multiple: true },
      format: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    'checks list',
  );
  if (values.help) {
    io.stdout.write(checksListHelp);
    return 0;
  }
  if (positionals.length > 0)
    throw scannerError('invalid_argument', `checks list takes no arguments, got ${positionals.join(' ')}`);
  const format = (values.format as string | undefined) ?? 'table';
  if (format !== 'table' && format !== 'json')
    throw scannerError('invalid_argument', `--format ${format}: expected table or json`);
  const checks = await loadChecks({ dirs: (values['checks-dir'] as string[] | undefined) ?? [], cwd: io.cwd });
  const rows = checks
    .map(({ definition: d, origin }) => ({
      id: d.id,
      name: d.name,
      maxCvss: d.maxCvss,
      dependsOn: d.dependsOn ?? [],
      scanKinds: scanKindsOf(d),
      origin,
      options: (d.options ?? []).map((o) => o.flag),
      issues: d.issues.map((i) => ({ id: i.id, name: i.name, score: i.cvss.score })),
    }))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  if (format === 'json') {
    io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  const table = new Table({
    head: ['ID', 'NAME', 'MAX CVSS', 'DEPENDS ON', 'ORIGIN'],
    style: { head: [], border: [] },
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
  });
  table.push(...rows.map((r) => [r.id, r.name, r.maxCvss.toFixed(1), r.dependsOn.join(', ') || '-', r.origin]));
  io.stdout.write(`${table.toString()}\n`);
  return 0;
}
