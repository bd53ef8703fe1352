/**
 * The scanner as users run it after `npm ci`: the compiled bin in dist/ (built by the prepare step, or by
 * `npm test`'s pretest), not the sources under tsx.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { fromRoot } from '../../lib/project-root.js';

const run = promisify(execFile);
const bin = fromRoot('dist', 'scanner', 'bin.js');

describe('the built scanner bin (dist/scanner/bin.js)', function () {
  this.timeout(60_000);

  it('loads a custom check written in TypeScript from --checks-dir, even on a Node without type stripping', async () => {
    const { stdout } = await run(
      process.execPath,
      [bin, 'checks', 'list', '--checks-dir', 'examples/checks', '--format', 'json'],
      { cwd: fromRoot() },
    );
    const checks = JSON.parse(stdout) as { id: string; origin: string }[];
    expect(checks.find((c) => c.id === 'custom.api_version_header')).to.include({ origin: 'custom' });
    expect(checks.filter((c) => c.origin === 'built-in').map((c) => c.id)).to.include('jwt.alg_none');
  });
});
