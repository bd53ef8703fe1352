/**
 * action.yml, the composite GitHub Action: its scan step run as a runner runs it (bash --noprofile --norc -eo
 * pipefail, the step's env with the inputs put in, GITHUB_OUTPUT and the other runner files), npx taking the scanner
 * from this working tree, against a target served here.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect } from 'chai';
import { dump, load } from 'js-yaml';
import { fromRoot } from '../../lib/project-root.js';
import { sarifProblems } from '../scanner/support/sarif-validator.js';
import { startTarget, type Target } from '../scanner/support/run-cli.js';
import { machineEnvironment, runCiScript } from './support/run-ci-script.js';

interface Step {
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
  'working-directory'?: string;
}
interface Action {
  inputs: Record<string, { default?: string; required?: boolean }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

const action = load(await readFile(fromRoot('action.yml'), 'utf8')) as Action;
const scanStep = action.runs.steps.find((s) => s.id === 'scan')!;

/** `${{ inputs.NAME }}` as the runner evaluates it (the input, else its default); any other expression is a test gap. */
function evaluate(text: string, inputs: Record<string, string>): string {
  return text.replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_m, name: string) => {
    expect(action.inputs, `input ${name}`).to.have.property(name);
    return inputs[name] ?? action.inputs[name].default ?? '';
  });
}

describe('action.yml (GitHub Action)', function () {
  this.timeout(120_000);
  let target: Target;
  let workspace: string;
  const seen: Record<string, string | undefined>[] = [];

  before(async () => {
    target = await startTarget((req, res) => {
      seen.push({ authorization: req.headers.authorization, apiKey: req.headers['x-api-key'] as string | undefined });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
    });
  });
  after(() => target.close());
  beforeEach(async () => {
    workspace = await mkdtemp(join(tmpdir(), 'github-workspace-'));
    seen.length = 0;
  });
  afterEach(() => rm(workspace, { recursive: true, force: true }));

  /** The scan step with `inputs` (and a user's step `env`), as a runner with this workspace runs it. */
  async function runScanStep(inputs: Record<string, string>, userEnv: Record<string, string> = {}) {
    const runnerTemp = join(workspace, '_temp');
    await mkdir(runnerTemp, { recursive: true });
    const files = { output: join(runnerTemp, 'output'), summary: join(runnerTemp, 'summary') };
    for (const file of Object.values(files)) await writeFile(file, '');
    const stepEnv = Object.fromEntries(
      Object.entries(scanStep.env ?? {}).map(([name, value]) => [name, evaluate(value, inputs)]),
    );
    const env = {
      ...machineEnvironment(),
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: workspace,
      GITHUB_ACTION_PATH: fromRoot(),
      GITHUB_OUTPUT: files.output,
      GITHUB_STEP_SUMMARY: files.summary,
      GITHUB_REPOSITORY: 'example/api',
      GITHUB_SHA: '0123456789abcdef0123456789abcdef01234567',
      RUNNER_OS: 'Linux',
      RUNNER_TEMP: runnerTemp,
      ...userEnv,
      ...stepEnv,
    };
    const cwd = resolve(workspace, evaluate(scanStep['working-directory'] ?? '.', inputs));
    const run = await runCiScript(scanStep.run!, {
      shell: ['bash', '--noprofile', '--norc', '-eo', 'pipefail'],
      cwd,
      env,
    });
    const outputs = Object.fromEntries(
      (await readFile(files.output, 'utf8'))
        .split('\n')
        .filter(Boolean)
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    return { ...run, outputs, summary: await readFile(files.summary, 'utf8') };
  }

  const scanInputs = (more: Record<string, string> = {}) => ({
    target: `${target.url}/ok`,
    package: fromRoot(),
    args: '--scans misconfiguration.http_headers',
    ...more,
  });

  it('fails with exit 2 above the threshold, the credential sent and masked, the SARIF written for the upload step', async () => {
    const run = await runScanStep(scanInputs({ threshold: '2', authorization: 'Bearer ci-secret-1' }));
    expect(run.code, run.stderr).to.equal(2);
    expect(run.outputs['exit-code']).to.equal('2');
    expect(run.outputs.sarif).to.equal(join(workspace, '_temp', 'gatehouse-scanner.sarif'));
    const sarif = JSON.parse(await readFile(run.outputs.sarif, 'utf8')) as { runs: { results: unknown[] }[] };
    expect(sarifProblems(sarif)).to.deep.equal([]);
    expect(sarif.runs[0].results.length).to.be.greaterThan(0);
    expect(seen.map((s) => s.authorization)).to.include('Bearer ci-secret-1');
    expect(run.stdout).to.include('::add-mask::Bearer ci-secret-1');
    expect(run.summary).to.include('exit 2');
  });

  it('passes with exit 0 when no finding scores above the threshold', async () => {
    const run = await runScanStep(scanInputs({ threshold: '9' }));
    expect(run.code, run.stderr).to.equal(0);
    expect(run.outputs['exit-code']).to.equal('0');
    expect(existsSync(run.outputs.sarif)).to.equal(true);
  });

  it('reads the config input, its ${NAME} from the step’s env (a secret), in the working directory', async () => {
    await mkdir(join(workspace, 'api'));
    await writeFile(
      join(workspace, 'api', 'scanner.yml'),
      dump({ target: `${target.url}/ok`, scans: 'misconfiguration.http_headers', headers: ['X-Api-Key: ${API_KEY}'] }),
    );
    const run = await runScanStep(
      { package: fromRoot(), config: 'scanner.yml', 'working-directory': 'api' },
      { API_KEY: 'key-from-secrets' },
    );
    expect(run.code, run.stderr).to.equal(0);
    expect(seen.map((s) => s.apiKey)).to.include('key-from-secrets');
  });

  it('refuses to run without the package input, with an error annotation', async () => {
    const run = await runScanStep({ target: `${target.url}/ok` });
    expect(run.code).to.equal(1);
    expect(run.stdout).to.match(/^::error title=Gatehouse scanner::set the package input/m);
  });

  it('takes an input as data, never as shell, and names no SARIF when the scan wrote none', async () => {
    const run = await runScanStep(scanInputs({ target: '$(touch injected)', args: '' }));
    expect(run.code).to.equal(1);
    expect(existsSync(join(workspace, 'injected'))).to.equal(false);
    expect(run.outputs.sarif, 'the upload step would fail on a file that is not there').to.equal(undefined);
  });

  it('splits the args input into words, never expanding them as file patterns', async () => {
    // In the workspace, `misconfiguration.*` would expand to this file's name: an unknown check, exit 1.
    await writeFile(join(workspace, 'misconfiguration.notes'), '');
    const run = await runScanStep(scanInputs({ args: '--scans misconfiguration.*', threshold: '9' }));
    expect(run.code, run.stderr).to.equal(0);
  });

  it('reads inputs only through env, and uploads the SARIF the scan step wrote even when that step failed', () => {
    expect(action.runs.using).to.equal('composite');
    expect(scanStep.shell).to.equal('bash');
    expect(scanStep.run).to.not.include('${{');
    for (const value of Object.values(scanStep.env ?? {})) expect(value).to.match(/^\$\{\{ inputs\.[\w-]+ \}\}$/);
    const upload = action.runs.steps.find((s) => s.uses?.startsWith('github/codeql-action/upload-sarif@'))!;
    expect(upload.if).to.include('always()');
    expect(upload.with?.sarif_file).to.equal('${{ steps.scan.outputs.sarif }}');
    expect(action.outputs.sarif.value).to.equal('${{ steps.scan.outputs.sarif }}');
  });
});
