import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Report } from '../../scanner/report/report-types.js';
import { reportProblems } from '../../scanner/report/validate-report.js';
import { runCli, startTarget, type Target } from './support/run-cli.js';

const spec = fileURLToPath(new URL('../fixtures/openapi/shop.openapi.yaml', import.meta.url));
const probeChecks = fileURLToPath(new URL('../fixtures/custom-checks/valid/', import.meta.url));

describe('scanner --shard and report merge', () => {
  let target: Target;
  let dir: string;
  before(async () => {
    target = await startTarget((_req, res) => res.writeHead(200).end('{}'));
    dir = await mkdtemp(join(tmpdir(), 'scanner-shard-'));
  });
  after(async () => {
    await target.close();
    await rm(dir, { recursive: true, force: true });
  });

  const shard = async (slice: string) => {
    const file = join(dir, `shard-${slice.replace('/', '-of-')}.json`);
    const result = await runCli([
      'scan',
      'openapi',
      spec,
      '--base-url',
      `${target.url}/v1`,
      '--checks-dir',
      probeChecks,
      '--scans',
      'custom.probe',
      '--shard',
      slice,
      '--report-file',
      file,
      '--report-format',
      'json',
    ]);
    expect(result.code).to.equal(0);
    return file;
  };

  it('splits the operations into disjoint slices that merge back into one valid report', async () => {
    const files = [await shard('1/2'), await shard('2/2')];
    const merged = await runCli(['report', 'merge', ...files]);
    expect(merged.code).to.equal(0);
    const report = JSON.parse(merged.stdout) as Report;
    expect(reportProblems(report)).to.deep.equal([]);
    const operationIds = report.reports.map((r) => r.operation!.id);
    expect([...operationIds].sort()).to.deep.equal(['GET /health', 'GET /items', 'GET /items/{itemId}', 'POST /items']);
    expect(new Set(operationIds).size).to.equal(4);
    expect(Object.keys(report.openapi!.paths).sort()).to.deep.equal(['/health', '/items', '/items/{itemId}']);
    expect(Object.keys(report.openapi!.paths['/items']).sort()).to.deep.equal(['GET', 'POST']);
    expect(report.options.mergedFrom).to.deep.equal(files);
  });

  it('refuses a shard outside 1..n and a merge input that is not a valid report', async () => {
    const bad = await runCli(['scan', 'openapi', spec, '--shard', '3/2']);
    expect(bad).to.deep.equal({
      code: 1,
      stdout: '',
      stderr: 'scanner: --shard must be <i>/<n> with 1 ≤ i ≤ n, e.g. 2/4 (got "3/2")\n',
    });
    const notReport = await runCli(['report', 'merge', spec]);
    expect(notReport).to.deep.equal({ code: 1, stdout: '', stderr: `scanner: ${spec}: not JSON\n` });
  });
});
