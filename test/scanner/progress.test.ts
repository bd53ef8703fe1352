import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { defineCheck, type CheckDefinition, type Operation } from '../../scanner/api.js';
import { run } from '../../scanner/cli.js';
import { runScan } from '../../scanner/engine.js';
import { createProgress } from '../../scanner/progress.js';
import type { ScannedCheck } from '../../scanner/scan-result.js';
import { startTarget, type Target } from './support/run-cli.js';

const shopSpec = fileURLToPath(new URL('../fixtures/openapi/shop.openapi.yaml', import.meta.url));
const probeChecks = fileURLToPath(new URL('../fixtures/custom-checks/valid/', import.meta.url));

describe('scanner progress bar', () => {
  let target: Target;
  before(async () => {
    target = await startTarget();
  });
  after(() => target.close());

  async function scan(isTTY: boolean, ...flags: string[]) {
    let stdout = '';
    let stderr = '';
    const code = await run(
      ['scan', 'curl', `${target.url}/ok`, '--scans', 'misconfiguration.http_t*', '--report-format', 'json', ...flags],
      {
        stdout: { write: (c: string) => (stdout += c) },
        stderr: Object.assign({ write: (c: string) => (stderr += c) }, { isTTY, columns: 80 }),
        env: {},
        isTTY,
      },
    );
    return { code, stdout, stderr };
  }

  it('draws on stderr when it is a terminal, leaving stdout to the report', async () => {
    const result = await scan(true);
    expect(result.code).to.equal(0);
    expect(result.stderr).to.include('Scanning');
    expect(JSON.parse(result.stdout).reports).to.have.length(2);
  });

  it('draws no bar when stderr is not a terminal (a short scan ends before the first line), and nothing with --no-progress', async () => {
    expect((await scan(false)).stderr).to.equal('');
    expect((await scan(true, '--no-progress')).stderr).to.equal('');
  });
});

describe('scanner progress lines when stderr is not a terminal', () => {
  const collect = () => {
    const lines: string[] = [];
    return {
      lines,
      io: { stdout: { write: () => true }, stderr: { write: (c: string) => lines.push(c) }, isTTY: false },
    };
  };
  const until = async (test: () => boolean) => {
    for (let waited = 0; !test() && waited < 5000; waited += 10) await new Promise((r) => setTimeout(r, 10));
  };

  it('writes a line with done, total, percentage and elapsed time every interval while work remains', async () => {
    const { lines, io } = collect();
    let clock = 0;
    const progress = createProgress(io, true, '2 operations × 3 checks', { intervalMs: 10, now: () => clock });
    progress.update(3, 6);
    clock = 12_000;
    await until(() => lines.length > 0);
    progress.stop();
    expect(lines[0]).to.equal('scanner: 3/6 done (50%) after 12 s — 2 operations × 3 checks\n');
  });

  it('writes nothing once the work is done or stopped, and nothing at all when disabled (--no-progress)', async () => {
    const { lines, io } = collect();
    const finished = createProgress(io, true, 'x', { intervalMs: 10 });
    finished.update(6, 6);
    const off = createProgress(io, false, 'x', { intervalMs: 10 });
    off.update(1, 6);
    const stopped = createProgress(io, true, 'x', { intervalMs: 10 });
    stopped.update(1, 6);
    stopped.stop();
    await new Promise((r) => setTimeout(r, 50));
    finished.stop();
    expect(lines).to.deep.equal([]);
  });
});

describe('scanner progress counting', () => {
  const loaded = (definition: CheckDefinition): ScannedCheck => ({
    definition,
    file: `${definition.id}.ts`,
    origin: 'custom',
  });
  const check = (id: string, extra: Partial<CheckDefinition> = {}): ScannedCheck =>
    loaded(defineCheck({ id, name: id, issues: [], maxCvss: 0, async run() {}, ...extra }));
  const operation = (id: string): Operation => ({
    id,
    method: 'GET',
    url: `http://127.0.0.1:9/${id}`,
    path: `/${id}`,
    headers: {},
    cookies: {},
    securitySchemes: [],
  });

  it('counts operations × checks, a once-per-scan check once and a check of another scan kind not at all', async () => {
    const calls: [number, number][] = [];
    await runScan({
      kind: 'openapi',
      operations: ['a', 'b', 'c', 'd'].map(operation),
      checks: [
        check('custom.one'),
        check('custom.two'),
        check('custom.once', { oncePerScan: true }),
        check('custom.graphql_only', { scanKinds: ['graphql'] }),
      ],
      onProgress: (done, total) => calls.push([done, total]),
    });
    expect(calls).to.have.length(4 * 2 + 1);
    expect(new Set(calls.map(([, total]) => total))).to.deep.equal(new Set([9]));
    expect(calls.map(([done]) => done)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('counts the exclusive checks, which run after the others, and ends at the total', async () => {
    const calls: [number, number][] = [];
    await runScan({
      kind: 'openapi',
      operations: ['a', 'b'].map(operation),
      checks: [check('custom.one'), check('custom.alone', { exclusive: true })],
      onProgress: (done, total) => calls.push([done, total]),
    });
    expect(calls).to.deep.equal([
      [1, 4],
      [2, 4],
      [3, 4],
      [4, 4],
    ]);
  });

  it('labels the bar with the operations and checks of an OpenAPI scan', async () => {
    let stderr = '';
    const target = await startTarget((_req, res) => res.writeHead(200).end('{}'));
    try {
      const code = await run(
        [
          'scan',
          'openapi',
          shopSpec,
          '--base-url',
          `${target.url}/v1`,
          '--checks-dir',
          probeChecks,
          '--scans',
          'custom.probe',
          '--report-format',
          'json',
        ],
        {
          stdout: { write: () => true },
          stderr: Object.assign({ write: (c: string) => (stderr += c) }, { isTTY: true, columns: 120 }),
          env: {},
          isTTY: true,
        },
      );
      expect(code).to.equal(0);
      expect(stderr).to.include('/4 (4 operations × 1 check)');
    } finally {
      await target.close();
    }
  });
});
