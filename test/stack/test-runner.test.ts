/** `npm test -- <file|grep>` and `npx mocha <file>` run only what they name, not the whole suite. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { fromRoot } from '../../lib/project-root.js';

const run = promisify(execFile);

async function titles(command: string, args: string[]): Promise<string[]> {
  const { stdout } = await run(command, [...args, '--reporter', 'json'], {
    cwd: fromRoot(),
    maxBuffer: 16 * 1024 * 1024,
  });
  const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { tests: { fullTitle: string }[] };
  return report.tests.map((t) => t.fullTitle);
}

describe('the test runner', function () {
  this.timeout(60_000);

  it('runs one file given to npm test (test/run.mjs), skipping the typecheck', async () => {
    const ran = await titles(process.execPath, [fromRoot('test', 'run.mjs'), 'test/lib/logger-terminal.test.ts']);
    expect(ran).to.have.length(4);
    expect(ran.every((t) => t.startsWith('terminal log lines') || t.startsWith('a repeating warning'))).to.equal(true);
  });

  it('runs only the tests whose title matches the words given', async () => {
    const ran = await titles(process.execPath, [fromRoot('test', 'run.mjs'), 'test/lib', 'repeating warning']);
    expect(ran).to.deep.equal([
      'a repeating warning is logged once, then its repeats within the window become one line with their count',
    ]);
  });

  it('runs one file given to npx mocha, not the default spec too', async () => {
    const ran = await titles(process.execPath, [
      fromRoot('node_modules', 'mocha', 'bin', 'mocha.js'),
      'test/lib/logger-terminal.test.ts',
    ]);
    expect(ran).to.have.length(4);
  });
});
