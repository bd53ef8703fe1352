/** `scanner report validate <file>`: checks a JSON report against schemas/report (revision 2024-10). */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { CliIo } from '../cli-io.js';
import { scannerError } from '../errors.js';
import { parseArgv } from '../parse-argv.js';
import { reportProblems } from '../report/validate-report.js';

const reportValidateHelp = `Usage: scanner report validate <file>

Validates a JSON report against the 2024-10 report schemas in schemas/report/. Prints "<file>: valid" and exits 0,
or lists every problem on stderr and exits 1.

  -h, --help   this help
`;

export async function reportValidate(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgv(argv, { help: { type: 'boolean', short: 'h' } }, 'report validate');
  if (values.help) {
    io.stdout.write(reportValidateHelp);
    return 0;
  }
  if (positionals.length !== 1)
    throw scannerError('invalid_argument', 'report validate needs one file (see scanner report validate --help)');
  const file = positionals[0];
  let text: string;
  try {
    text = await readFile(resolve(io.cwd ?? process.cwd(), file), 'utf8');
  } catch (error) {
    throw scannerError(
      'invalid_argument',
      `${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  let report: unknown;
  try {
    report = JSON.parse(text);
  } catch (error) {
    throw scannerError(
      'invalid_report',
      `${file}: not JSON (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  const problems = reportProblems(report);
  if (problems.length === 0) {
    io.stdout.write(`${file}: valid (report revision 2024-10)\n`);
    return 0;
  }
  io.stderr.write(`${file}: invalid report (${problems.length} problem${problems.length > 1 ? 's' : ''})\n`);
  for (const problem of problems) io.stderr.write(`  ${problem}\n`);
  return 1;
}
