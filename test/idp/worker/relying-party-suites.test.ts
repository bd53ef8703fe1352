import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromRoot } from '../../../lib/project-root.js';
import { workerBundle } from './support/worker-idp.js';

/** The Node IdP's relying-party suites that need nothing in-process (no store spy, no listener, no MongoDB). */
const SUITES = ['claims', 'registration', 'provider', 'interactions', 'resource-server', 'honest-metadata'].map(
  (name) => `test/idp/${name}.test.ts`,
);

interface MochaStats {
  tests: number;
  passes: number;
  failures: number;
  pending: number;
}

describe('idp worker: the Node IdP relying-party suites, unchanged, against the worker', function () {
  this.timeout(240000);
  let dir: string;
  before(async () => {
    await workerBundle(); // built (or found current) once, before the child uses it
    dir = mkdtempSync(join(tmpdir(), 'idp-worker-rp-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it(`passes ${SUITES.length} suites (claims, registration, provider, interactions, resource server, honest metadata) with every IdP on workerd`, async () => {
    const report = join(dir, 'report.json');
    const starts = join(dir, 'starts.log');
    const args = [
      '--import',
      'tsx',
      '--import',
      './test/idp/worker/support/target-worker.mjs',
      'node_modules/mocha/bin/mocha.js',
      '--no-config',
      '--exit',
      '--timeout',
      '20000',
      '--reporter',
      'json',
      '--reporter-option',
      `output=${report}`,
      ...SUITES,
    ];
    const run = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        args,
        { cwd: fromRoot(), env: { ...process.env, IDP_WORKER_TARGET_LOG: starts }, maxBuffer: 16 * 1024 * 1024 },
        (error, _stdout, stderr) => {
          resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stderr });
        },
      );
    });
    const { stats, failures } = JSON.parse(readFileSync(report, 'utf8')) as {
      stats: MochaStats;
      failures: { fullTitle: string; err: { message: string } }[];
    };
    expect(
      failures.map((f) => `${f.fullTitle}: ${f.err.message}`),
      run.stderr.slice(-2000),
    ).to.deep.equal([]);
    expect(run.code).to.equal(0);
    expect(stats.failures).to.equal(0);
    expect(stats.passes).to.be.greaterThan(40);
    // Every IdP those suites started was a worker.
    expect(
      readFileSync(starts, 'utf8')
        .trim()
        .split('\n')
        .every((line) => /^http:\/\/127\.0\.0\.1:\d+$/.test(line)),
    ).to.equal(true);
  });
});
