/** The scanner's config file (scanner/config/): its keys are the flags' values, typed flags win, every problem is one line. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { dump } from 'js-yaml';
import type { Report } from '../../../scanner/report/report-types.js';
import { runCli, startTarget, type Target } from '../support/run-cli.js';

const checkIds = (stdout: string) => [...new Set((JSON.parse(stdout) as Report).reports.map((r) => r.id))];

describe('the scanner config file', () => {
  let target: Target;
  let dir: string;
  const seen: { authorization?: string }[] = [];
  before(async () => {
    target = await startTarget((req, res) => {
      seen.push({ authorization: req.headers.authorization });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
    });
  });
  after(() => target.close());
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'scanner-config-'));
    seen.length = 0;
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const write = (name: string, data: unknown) =>
    writeFile(join(dir, name), typeof data === 'string' ? data : dump(data));

  it('is found as .gatehouse-scanner.yml in the working directory, and `scanner scan` scans its target', async () => {
    await write('.gatehouse-scanner.yml', {
      target: `${target.url}/ok`,
      scans: ['misconfiguration.http_headers'],
      reportFormat: 'json',
      noProgress: true,
    });
    const result = await runCli(['scan'], { cwd: dir });
    expect(result.code, result.stderr).to.equal(0);
    expect(checkIds(result.stdout)).to.include('misconfiguration.http_headers').and.not.include('jwt.alg_none');
    expect(seen.length).to.be.greaterThan(0);
  });

  it('lets a flag typed on the command line win over the same key, a list replacing the whole list', async () => {
    await write('.gatehouse-scanner.yml', {
      scans: ['misconfiguration.http_trace'],
      reportFormat: 'yaml',
      noProgress: true,
    });
    const result = await runCli(
      ['scan', 'curl', `${target.url}/ok`, '--scans', 'misconfiguration.http_headers', '--report-format', 'json'],
      { cwd: dir },
    );
    expect(result.code, result.stderr).to.equal(0);
    expect(checkIds(result.stdout))
      .to.include('misconfiguration.http_headers')
      .and.not.include('misconfiguration.http_trace');
  });

  it('reads the file --config names instead of the one here, and none with --no-config', async () => {
    await write('.gatehouse-scanner.yml', { concurrency: 0 });
    await write('ci.yml', { scans: 'misconfiguration.http_headers', reportFormat: 'json', noProgress: true });
    const here = await runCli(['scan', 'curl', `${target.url}/ok`], { cwd: dir });
    expect(here).to.deep.include({
      code: 1,
      stderr: 'scanner: concurrency (.gatehouse-scanner.yml) must be ≥ 1 (got "0")\n',
    });
    const named = await runCli(['scan', 'curl', `${target.url}/ok`, '--config', 'ci.yml'], { cwd: dir });
    expect(named.code, named.stderr).to.equal(0);
    expect(checkIds(named.stdout)).to.deep.equal(['misconfiguration.http_headers']);
    const none = await runCli(
      ['scan', 'curl', `${target.url}/ok`, '--no-config', '--scans', 'discover.server_signature', '--no-progress'],
      { cwd: dir },
    );
    expect(none.code, none.stderr).to.equal(0);
  });

  it('names a value the command line typed by its flag, not by the key of the file', async () => {
    await write('.gatehouse-scanner.yml', { concurrency: 0 });
    const result = await runCli(['scan', 'curl', `${target.url}/ok`, '--concurrency=0'], { cwd: dir });
    expect(result.stderr).to.equal('scanner: --concurrency must be ≥ 1 (got "0")\n');
  });

  it('takes ${NAME} from the environment, so a credential stays out of the file', async () => {
    await write('.gatehouse-scanner.yml', {
      target: `${target.url}/ok`,
      headers: ['Authorization: Bearer ${API_TOKEN}'],
      scans: 'misconfiguration.http_headers',
      noProgress: true,
    });
    const result = await runCli(['scan', '--report-format', 'json'], { cwd: dir, env: { API_TOKEN: 'opaque-123' } });
    expect(result.code, result.stderr).to.equal(0);
    expect(seen.map((s) => s.authorization)).to.include('Bearer opaque-123');
  });

  it('refuses a variable that is not set, naming it and its key, before sending anything', async () => {
    await write('.gatehouse-scanner.yml', { target: `${target.url}/ok`, headers: ['X-Key: ${API_KEY}'] });
    const result = await runCli(['scan'], { cwd: dir });
    expect(result).to.deep.include({
      code: 1,
      stderr: 'scanner: .gatehouse-scanner.yml: ${API_KEY} in headers[0]: that variable is not set\n',
    });
    expect(seen).to.have.length(0);
  });

  it('answers unknown keys with one line naming each of them and the key probably meant', async () => {
    await write('.gatehouse-scanner.yml', { target: `${target.url}/ok`, concurency: 2, reportFromat: 'json' });
    const result = await runCli(['scan'], { cwd: dir });
    expect(result.code).to.equal(1);
    expect(result.stderr.trim().split('\n')).to.have.length(1);
    expect(result.stderr).to.match(
      /unknown keys concurency \(did you mean concurrency\?\), reportFromat \(did you mean reportFormat\?\)/,
    );
    expect(seen).to.have.length(0);
  });

  it('treats a key of another kind of scan as unknown (baseUrl is scan openapi’s)', async () => {
    await write('.gatehouse-scanner.yml', { target: `${target.url}/ok`, baseUrl: target.url });
    const result = await runCli(['scan'], { cwd: dir });
    expect(result.code).to.equal(1);
    expect(result.stderr).to.match(/^scanner: \.gatehouse-scanner\.yml: unknown key baseUrl/);
  });

  it('says so when the file is for another kind of scan than the one typed', async () => {
    await write('.gatehouse-scanner.yml', { target: 'openapi.yaml', kind: 'openapi', baseUrl: target.url });
    expect((await runCli(['scan', 'curl', `${target.url}/ok`], { cwd: dir })).stderr).to.equal(
      'scanner: .gatehouse-scanner.yml is for scan openapi (its kind), not scan curl: run scanner scan openapi, or scanner scan\n',
    );
    expect(seen).to.have.length(0);
  });

  it('names each value of the wrong shape by its key', async () => {
    await write('.gatehouse-scanner.yml', { noProgress: 'yes', scans: { a: 1 }, kind: 'soap' });
    const result = await runCli(['scan', 'curl', `${target.url}/ok`], { cwd: dir });
    expect(result.stderr).to.equal(
      'scanner: .gatehouse-scanner.yml: noProgress must be true or false; scans must be a list of texts (or one text); kind must be one of curl, openapi, graphql\n',
    );
  });

  it('suppresses the findings its suppressions list names, as --suppressions would', async () => {
    const flags = ['--scans', 'misconfiguration.http_headers', '--report-format', 'json', '--no-progress'];
    const first = await runCli(['scan', 'curl', `${target.url}/ok`, ...flags], { cwd: dir });
    const failed = (JSON.parse(first.stdout) as Report).reports.flatMap((r) => r.issues.filter((i) => i.fingerprint));
    expect(failed.length).to.be.greaterThan(0);
    await write('.gatehouse-scanner.yml', {
      suppressions: [{ fingerprint: failed[0].fingerprint, reason: 'served by a CDN that adds them' }],
    });
    const second = await runCli(['scan', 'curl', `${target.url}/ok`, ...flags], { cwd: dir });
    const issues = (JSON.parse(second.stdout) as Report).reports.flatMap((r) => r.issues);
    expect(issues.find((i) => i.fingerprint === failed[0].fingerprint)).to.deep.include({
      status: 'failed',
      suppressed: { reason: 'served by a CDN that adds them' },
    });
  });

  it('scans a target typed after `scanner scan` as the kind it implies, with the file’s flags', async () => {
    await write('.gatehouse-scanner.yml', {
      scans: 'misconfiguration.http_headers',
      reportFormat: 'json',
      noProgress: true,
    });
    const result = await runCli(['scan', `${target.url}/ok`], { cwd: dir });
    expect(result.code, result.stderr).to.equal(0);
    expect(checkIds(result.stdout)).to.deep.equal(['misconfiguration.http_headers']);
  });

  it('says what is missing when `scanner scan` has no target', async () => {
    await write('.gatehouse-scanner.yml', { reportFormat: 'json' });
    expect((await runCli(['scan'], { cwd: dir })).stderr).to.match(
      /\.gatehouse-scanner\.yml has no target: add target:/,
    );
    expect((await runCli(['scan'], { cwd: join(dir, '..') })).stderr).to.match(
      /scanner scan needs a kind \(curl, openapi, graphql\) and a target, or a config file/,
    );
  });

  it('refuses a file that is not one mapping, and one that cannot be read', async () => {
    await write('list.yml', '- a\n- b\n');
    expect((await runCli(['scan', '--config', 'list.yml'], { cwd: dir })).stderr).to.equal(
      'scanner: list.yml: must be a mapping of settings (target: …, headers: […], …)\n',
    );
    expect((await runCli(['scan', '--config', 'missing.yml'], { cwd: dir })).stderr).to.equal(
      'scanner: missing.yml: cannot be read (ENOENT)\n',
    );
  });

  it('is how `scanner scan --help` says a kind may be left out', async () => {
    const result = await runCli(['scan', '--help'], { cwd: dir });
    expect(result.code).to.equal(0);
    expect(result.stdout).to.include('scanner scan [<URL|description file>] [flags]');
  });

  it('is not read by discover api unless --config names it: it describes a scan', async () => {
    await write('.gatehouse-scanner.yml', { target: 'openapi.yaml', baseUrl: target.url, concurrency: 0 });
    const result = await runCli(['discover', 'api', `${target.url}/`, '--rate', '5000/s', '--no-progress'], {
      cwd: dir,
    });
    expect(result.code, result.stderr).to.equal(0);
  });

  it('never reads a file for --help', async () => {
    await write('.gatehouse-scanner.yml', 'not: [valid');
    const result = await runCli(['scan', 'curl', '--help'], { cwd: dir });
    expect(result.code).to.equal(0);
    expect(result.stdout).to.include('--config <file>');
  });
});
