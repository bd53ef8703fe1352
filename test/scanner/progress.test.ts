import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { defineCheck, type CheckDefinition, type Operation } from '../../scanner/api.js';
import { run } from '../../scanner/cli.js';
import { runScan } from '../../scanner/engine.js';
import type { LoadedCheck } from '../../scanner/loader.js';
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
    const code = await run(['scan', 'curl', `${target.url}/ok`, '--scans', 'misconfiguration.http_t*', '--report-format', 'json', ...flags], {
      stdout: { write: (c: string) => (stdout += c) },
      stderr: Object.assign({ write: (c: string) => (stderr += c) }, { isTTY, columns: 80 }),
      env: {},
      isTTY,
    });
    return { code, stdout, stderr };
  }

  it('draws on stderr when it is a terminal, leaving stdout to the report', async () => {
    const result = await scan(true);
    expect(result.code).to.equal(0);
    expect(result.stderr).to.include('Scanning');
    expect(JSON.parse(result.stdout).reports).to.have.length(2);
  });

  it('stays off when stderr is not a terminal, and with --no-progress', async () => {
    expect((await scan(false)).stderr).to.equal('');
    expect((await scan(true, '--no-progress')).stderr).to.equal('');
  });
});

describe('scanner progress counting', () => {
  const loaded = (definition: CheckDefinition): LoadedCheck => ({ definition, file: `${definition.id}.ts`, origin: 'custom' });
  const check = (id: string, extra: Partial<CheckDefinition> = {}): LoadedCheck =>
    loaded(defineCheck({ id, name: id, issues: [], maxCvss: 0, async run() {}, ...extra }));
  const operation = (id: string): Operation => ({ id, method: 'GET', url: `http://127.0.0.1:9/${id}`, path: `/${id}`, headers: {}, cookies: {}, securitySchemes: [] });

  it('counts operations × checks, a once-per-scan check once and a check of another scan kind not at all', async () => {
    const calls: [number, number][] = [];
    await runScan({
      kind: 'openapi',
      operations: ['a', 'b', 'c', 'd'].map(operation),
      checks: [check('custom.one'), check('custom.two'), check('custom.once', { oncePerScan: true }), check('custom.graphql_only', { scanKinds: ['graphql'] })],
      onProgress: (done, total) => calls.push([done, total]),
    });
    expect(calls).to.have.length(4 * 2 + 1);
    expect(new Set(calls.map(([, total]) => total))).to.deep.equal(new Set([9]));
    expect(calls.map(([done]) => done)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('labels the bar with the operations and checks of an OpenAPI scan', async () => {
    let stderr = '';
    const target = await startTarget((_req, res) => res.writeHead(200).end('{}'));
    try {
      const code = await run(['scan', 'openapi', shopSpec, '--base-url', `${target.url}/v1`, '--checks-dir', probeChecks, '--scans', 'custom.probe', '--report-format', 'json'], {
        stdout: { write: () => true },
        stderr: Object.assign({ write: (c: string) => (stderr += c) }, { isTTY: true, columns: 120 }),
        env: {},
        isTTY: true,
      });
      expect(code).to.equal(0);
      expect(stderr).to.include('/4 (4 operations × 1 check)');
    } finally {
      await target.close();
    }
  });
});
