/**
 * ci-templates/gitlab/gatehouse-scanner.gitlab-ci.yml: the hidden job's script run as a GitLab runner runs it (bash,
 * errexit and pipefail, in CI_PROJECT_DIR, with the predefined variables and the job's variables under the extending
 * job's), npx taking the scanner from this working tree, against a target served here.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { dump, load } from 'js-yaml';
import { parse as parseJunit, type TestSuites } from 'junit2json';
import { fromRoot } from '../../lib/project-root.js';
import { startTarget, type Target } from '../scanner/support/run-cli.js';
import { machineEnvironment, runCiScript } from './support/run-ci-script.js';

interface Job {
  image: string;
  variables: Record<string, string>;
  script: string[];
  artifacts: { when: string; paths: string[]; reports: { junit: string } };
}

const template = load(
  await readFile(fromRoot('ci-templates', 'gitlab', 'gatehouse-scanner.gitlab-ci.yml'), 'utf8'),
) as Record<string, Job>;
const job = template['.gatehouse-scanner'];

describe('the GitLab CI template', function () {
  this.timeout(120_000);
  let target: Target;
  let projectDir: string;
  const seen: (string | undefined)[] = [];

  before(async () => {
    target = await startTarget((req, res) => {
      seen.push(req.headers.authorization ?? (req.headers['x-api-key'] as string | undefined));
      res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
    });
  });
  after(() => target.close());
  beforeEach(async () => {
    projectDir = await mkdtemp(join(tmpdir(), 'gitlab-project-'));
    seen.length = 0;
  });
  afterEach(() => rm(projectDir, { recursive: true, force: true }));

  /** The job extended with `variables` (and CI/CD variables such as secrets), run in a fresh project directory. */
  function runJob(variables: Record<string, string>, cicd: Record<string, string> = {}) {
    const env = {
      ...machineEnvironment(),
      CI: 'true',
      GITLAB_CI: 'true',
      CI_PROJECT_DIR: projectDir,
      CI_BUILDS_DIR: join(projectDir, '..'),
      CI_JOB_ID: '4242',
      CI_JOB_NAME: 'api-scan',
      CI_PIPELINE_ID: '77',
      CI_COMMIT_SHA: '0123456789abcdef0123456789abcdef01234567',
      CI_SERVER_URL: 'https://gitlab.example.com',
      ...cicd,
      ...job.variables,
      ...variables,
    };
    return runCiScript(job.script.join('\n'), { shell: ['bash', '-eo', 'pipefail'], cwd: projectDir, env });
  }

  const report = async (): Promise<TestSuites> =>
    (await parseJunit(await readFile(join(projectDir, job.artifacts.reports.junit), 'utf8'))) as TestSuites;

  it('fails the job with exit 2 above the threshold and leaves the JUnit report GitLab reads', async () => {
    const run = await runJob(
      {
        GATEHOUSE_PACKAGE: fromRoot(),
        GATEHOUSE_TARGET: `${target.url}/ok`,
        GATEHOUSE_THRESHOLD: '2',
        GATEHOUSE_ARGS: '--scans misconfiguration.http_headers',
      },
      { GATEHOUSE_AUTHORIZATION: 'Bearer masked-variable-1' },
    );
    expect(run.code, run.stderr).to.equal(2);
    expect(seen).to.include('Bearer masked-variable-1');
    const junit = await report();
    expect(junit.failures).to.equal(1);
    expect(junit.testsuite!.map((s) => s.name)).to.deep.equal([
      'misconfiguration.http_headers: HTTP Headers Misconfiguration',
    ]);
  });

  it('passes with exit 0 when nothing scores above the threshold', async () => {
    const run = await runJob({
      GATEHOUSE_PACKAGE: fromRoot(),
      GATEHOUSE_TARGET: `${target.url}/ok`,
      GATEHOUSE_THRESHOLD: '9',
    });
    expect(run.code, run.stderr).to.equal(0);
    expect(existsSync(join(projectDir, job.artifacts.reports.junit))).to.equal(true);
  });

  it('splits GATEHOUSE_ARGS into words, never expanding them as file patterns', async () => {
    // In the project, `misconfiguration.*` would expand to this file's name: an unknown check, exit 1.
    await writeFile(join(projectDir, 'misconfiguration.notes'), '');
    const run = await runJob({
      GATEHOUSE_PACKAGE: fromRoot(),
      GATEHOUSE_TARGET: `${target.url}/ok`,
      GATEHOUSE_THRESHOLD: '9',
      GATEHOUSE_ARGS: '--scans misconfiguration.*',
    });
    expect(run.code, run.stderr).to.equal(0);
  });

  it('scans what .gatehouse-scanner.yml in the project says, its ${NAME} from a CI/CD variable', async () => {
    await writeFile(
      join(projectDir, '.gatehouse-scanner.yml'),
      dump({ target: `${target.url}/ok`, scans: 'misconfiguration.http_headers', headers: ['X-Api-Key: ${API_KEY}'] }),
    );
    const run = await runJob({ GATEHOUSE_PACKAGE: fromRoot() }, { API_KEY: 'key-from-cicd-variables' });
    expect(run.code, run.stderr).to.equal(0);
    expect(seen).to.include('key-from-cicd-variables');
    expect((await report()).tests).to.equal(1);
  });

  it('stops with one line when GATEHOUSE_PACKAGE is not set', async () => {
    const run = await runJob({ GATEHOUSE_TARGET: `${target.url}/ok` });
    expect(run.code).to.equal(1);
    expect(run.stderr).to.equal(
      'Gatehouse scanner: set GATEHOUSE_PACKAGE (a Gatehouse tarball URL or path, or its registry spec)\n',
    );
  });

  it('keeps the report whatever the exit code, as the file the script writes', () => {
    expect(job.image).to.match(/^node:20/);
    expect(job.artifacts.when).to.equal('always');
    expect(job.artifacts.paths).to.deep.equal([job.artifacts.reports.junit]);
    expect(job.script.join('\n')).to.include(`--report-format junit --report-file ${job.artifacts.reports.junit}`);
  });
});
