/** The command table of scanner/cli.ts: `--version` and `--help` answer without loading any command. */
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { expect } from 'chai';
import { fromRoot } from '../../lib/project-root.js';
import { commands } from '../../scanner/cli.js';
import { relativeImports } from '../support/import-graph.js';
import { runCli } from './support/run-cli.js';

/** Every module evaluated when `file` is imported (static, value imports only; `import()` is left out). */
function loadedWith(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const specifier of relativeImports(readFileSync(file, 'utf8'), { runtimeOnly: true }))
    loadedWith(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')), seen);
  return seen;
}

describe('scanner/cli.ts', () => {
  it('loads only itself, the version, the exit codes and the error class before a command is dispatched', () => {
    const loaded = [...loadedWith(fromRoot('scanner', 'cli.ts'))].map((f) => relative(fromRoot(), f)).sort();
    expect(loaded).to.deep.equal(['lib/app-error.ts', 'scanner/cli.ts', 'scanner/exit-codes.ts', 'scanner/version.ts']);
  });

  it('imports each command of its table when it runs', async () => {
    for (const [group, family] of Object.entries(commands))
      for (const [sub, command] of Object.entries(family))
        expect(await command.load(), `${group} ${sub}`).to.be.a('function');
  });

  it('prints the version of package.json for --version', async () => {
    const { version } = JSON.parse(readFileSync(fromRoot('package.json'), 'utf8')) as { version: string };
    expect(await runCli(['--version'])).to.deep.equal({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('answers an unknown command with one line naming it, and does not take inherited names for commands', async () => {
    expect(await runCli(['toString'])).to.deep.include({
      code: 1,
      stderr: 'scanner: unknown command "toString" (see scanner --help)\n',
    });
    expect(await runCli(['scan', 'constructor'])).to.deep.include({
      code: 1,
      stderr: 'scanner: unknown command "scan constructor" (see scanner scan --help)\n',
    });
  });
});
