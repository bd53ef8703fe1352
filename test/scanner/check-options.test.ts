import { expect } from 'chai';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Report } from '../../scanner/report/report-types.js';
import { runCli, startTarget, type Target } from './support/run-cli.js';

/** A custom check as a user outside this repository writes it: a plain module, one declared option. */
function customCheck(id: string, option: Record<string, unknown>, run = 'async run() {}'): string {
  return `export default {
  id: ${JSON.stringify(id)},
  name: 'Custom option check',
  issues: [{ id: 'custom.key_accepted', name: 'Key accepted', cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:L/VI:N/VA:N/SC:N/SI:N/SA:N', score: 2 } }],
  maxCvss: 2,
  options: [${JSON.stringify(option)}],
  ${run},
};
`;
}

const API_KEY = {
  name: 'apiKey',
  type: 'string',
  flag: '--custom-api-key',
  valueName: '<key>',
  doc: 'the API key the custom check sends',
  secret: true,
};
const SENDS_KEY = `async run(ctx) {
    const response = await ctx.http.send({ headers: { 'x-api-key': ctx.options.apiKey } });
    ctx.setFact('echoed', response.body);
    ctx.report('custom.key_accepted', { detail: 'accepted ' + ctx.options.apiKey, attempt: response });
  }`;

describe('scanner check options declared by a custom check (--checks-dir)', () => {
  let dir: string;
  let target: Target;
  const received: (string | undefined)[] = [];

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gatehouse-check-options-'));
    target = await startTarget((req, res) => {
      received.push(req.headers['x-api-key'] as string | undefined);
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`key ${String(req.headers['x-api-key'])}`);
    });
  });
  after(async () => {
    await target.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('lists its flag in scan curl --help, with its doc and the check that reads it', async () => {
    const checks = join(dir, 'help');
    await mkdir(checks);
    await writeFile(join(checks, 'custom.key_check.mjs'), customCheck('custom.key_check', API_KEY, SENDS_KEY));
    const result = await runCli(['scan', 'curl', '--checks-dir', checks, '--help']);
    expect(result.code).to.equal(0);
    expect(result.stdout).to.match(
      /--custom-api-key <key>\s+the API key the custom check sends\n\s+read by custom\.key_check\n/,
    );
    expect(result.stdout).to.include('--jwt-secrets-file <path>');
    const without = await runCli(['scan', 'curl', '--help']);
    expect(without.stdout).to.not.include('--custom-api-key');
    const listed = JSON.parse(
      (await runCli(['checks', 'list', '--checks-dir', checks, '--format', 'json'])).stdout,
    ) as { id: string; options: string[] }[];
    expect(listed.find((c) => c.id === 'custom.key_check')!.options).to.deep.equal(['--custom-api-key']);
  });

  it('hands the value to the check and redacts it from the JSON report (options, evidence, facts) because it is secret', async () => {
    const checks = join(dir, 'run');
    await mkdir(checks);
    await writeFile(join(checks, 'custom.key_check.mjs'), customCheck('custom.key_check', API_KEY, SENDS_KEY));
    const key = 'custom-secret-key-7781';
    const result = await runCli([
      'scan',
      'curl',
      `${target.url}/`,
      '--checks-dir',
      checks,
      '--scans',
      'custom.key_check',
      '--report-format',
      'json',
      '--custom-api-key',
      key,
    ]);
    expect(result.code, result.stderr).to.equal(0);
    expect(received.at(-1)).to.equal(key);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.options.apiKey).to.equal('[redacted]');
    expect(report.reports[0].issues[0])
      .to.include({ status: 'failed' })
      .and.have.deep.property('details', ['accepted [redacted]']);
    expect(report.reports[0].data).to.deep.equal({ echoed: 'key [redacted]' });
    expect(result.stdout).to.not.include(key);
  });

  it('refuses a custom check option that is not a valid value for its type', async () => {
    const checks = join(dir, 'integer');
    await mkdir(checks);
    const burst = { name: 'customBurst', type: 'integer', flag: '--custom-burst', doc: 'requests', min: 1, max: 10 };
    await writeFile(join(checks, 'custom.burst.mjs'), customCheck('custom.burst', burst));
    const result = await runCli(['scan', 'curl', `${target.url}/`, '--checks-dir', checks, '--custom-burst', '11']);
    expect(result).to.deep.include({
      code: 1,
      stderr: 'scanner: --custom-burst must be ≤ 10 (got "11")\n',
    });
  });

  it('refuses one option declared with two different types, naming both files', async () => {
    const checks = join(dir, 'clash');
    await mkdir(checks);
    await writeFile(
      join(checks, 'custom.first.mjs'),
      customCheck('custom.first', { name: 'depth', type: 'integer', flag: '--depth', doc: 'depth' }),
    );
    await writeFile(
      join(checks, 'custom.second.mjs'),
      customCheck('custom.second', { name: 'depth', type: 'string', flag: '--depth', doc: 'depth' }),
    );
    const result = await runCli(['checks', 'list', '--checks-dir', checks]);
    expect(result.code).to.equal(1);
    expect(result.stderr).to.equal(
      `scanner: ${join(checks, 'custom.second.mjs')}: option "depth" is declared as string --depth here and as integer --depth by ${join(checks, 'custom.first.mjs')}\n`,
    );
  });

  it('refuses a check option whose flag is already a scanner flag', async () => {
    const checks = join(dir, 'reserved');
    await mkdir(checks);
    await writeFile(
      join(checks, 'custom.rate.mjs'),
      customCheck('custom.rate', { name: 'myRate', type: 'string', flag: '--rate', doc: 'rate' }),
    );
    const result = await runCli(['scan', 'curl', `${target.url}/`, '--checks-dir', checks]);
    expect(result).to.deep.include({
      code: 1,
      stderr: 'scanner: custom.rate: option "myRate" uses --rate, which is a scanner flag\n',
    });
  });
});
