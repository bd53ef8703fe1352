/**
 * The bundled scanner as `npm run build` writes it (dist/scanner-bundle/, run by dist/scanner/bin.js): every built-in
 * check compiled in, the weak-secret worker found beside the chunks, and validators compiled ahead of time that judge
 * reports exactly as the ones compiled on first use.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { fromRoot } from '../../../lib/project-root.js';
import { reportProblems } from '../../../scanner/report/validate-report.js';
import type { Report } from '../../../scanner/report/report-types.js';
import { hs256Token, startJwtTarget, verifiesHs256 } from '../../fixtures/targets/jwt-target.js';

const bin = fromRoot('dist', 'scanner', 'bin.js');

/** Runs the built bin; resolves with its exit code and output whatever the code. */
async function scanner(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, ...args], { cwd: fromRoot() });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('the bundled scanner (dist/scanner-bundle/)', function () {
  this.timeout(60_000);
  let dir: string;

  before(async function () {
    if (!existsSync(fromRoot('dist', 'scanner-bundle', 'cli.js')))
      throw new Error('dist/scanner-bundle/cli.js is missing: run npm run build');
    dir = await mkdtemp(join(tmpdir(), 'scanner-bundle-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('lists every check module of checks/ as a built-in', async () => {
    const { stdout } = await scanner(['checks', 'list', '--format', 'json']);
    const listed = (JSON.parse(stdout) as { id: string; origin: string }[]).filter((c) => c.origin === 'built-in');
    const files = readdirSync(fromRoot('checks'))
      .filter((name) => name.endsWith('.ts'))
      .map((name) => name.slice(0, -'.ts'.length));
    expect(listed.map((c) => c.id).sort()).to.deep.equal(files.sort());
  });

  it("cracks a dictionary secret in jwt.weak_secret's worker thread", async () => {
    const target = await startJwtTarget(verifiesHs256('secret'));
    try {
      const file = join(dir, 'weak.json');
      const run = await scanner([
        'scan',
        'curl',
        target.url('/items'),
        '-H',
        `Authorization: Bearer ${hs256Token('secret')}`,
        '--scans',
        'jwt.weak_secret',
        '--no-progress',
        '--report-format',
        'json',
        '--report-file',
        file,
      ]);
      expect(run.code, run.stderr).to.equal(0);
      const report = JSON.parse(await readFile(file, 'utf8')) as Report;
      const item = report.reports.find((r) => r.id === 'jwt.weak_secret')!;
      expect(item.issues.map((i) => [i.id, i.status])).to.deep.equal([['broken_authentication.weak_secret', 'failed']]);
    } finally {
      await target.close();
    }
  });

  it('validates reports with the precompiled validator exactly as with the one compiled on first use', async () => {
    const broken = {
      options: {},
      reports: [{ id: 'x', name: 'X', startTime: 'yesterday', scans: [], issues: [{ id: 'i', status: 'maybe' }] }],
    };
    const file = join(dir, 'broken.json');
    await writeFile(file, JSON.stringify(broken));
    const run = await scanner(['report', 'validate', file]);
    expect(run.code).to.equal(1);
    const listed = run.stderr
      .split('\n')
      .slice(1)
      .filter(Boolean)
      .map((line) => line.trim());
    expect(listed).to.deep.equal(reportProblems(broken));
    expect(listed).to.have.length.above(2);
  });
});
