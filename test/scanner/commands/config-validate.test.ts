/** `scanner config validate [<file>]`: exit 0 and one line for a file a scan would accept, exit 1 and one line naming every problem otherwise. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { dump } from 'js-yaml';
import { fromRoot } from '../../../lib/project-root.js';
import { runCli } from '../support/run-cli.js';

describe('scanner config validate', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'scanner-config-validate-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));
  const write = (name: string, data: unknown) => writeFile(join(dir, name), dump(data));
  // Port 9 (discard) on loopback: a scan would be refused at once; validation must never get that far.
  const target = 'http://127.0.0.1:9/users/1';

  it('exits 0 for a valid file, saying which scan it describes, and sends nothing', async () => {
    await write('scanner.yml', {
      target,
      headers: ['Authorization: Bearer ${TOKEN}'],
      reportFormat: 'sarif',
      severityThreshold: 7,
      scans: ['jwt.*', 'bola.*'],
      asOther: 'Authorization: Bearer ${OTHER_TOKEN}',
      suppressions: [
        { fingerprint: '0123456789abcdef0123456789abcdef', reason: 'accepted risk', expires: '2099-01-01' },
      ],
    });
    const result = await runCli(['config', 'validate', 'scanner.yml'], {
      cwd: dir,
      env: { TOKEN: 'a', OTHER_TOKEN: 'b' },
    });
    expect(result).to.deep.equal({
      code: 0,
      stdout: `scanner.yml: valid (scan curl of ${target}, with suppressions)\n`,
      stderr: '',
    });
  });

  it('reads .gatehouse-scanner.yml here when no file is named, as the scan of its kind', async () => {
    await write('.gatehouse-scanner.yml', { target: 'openapi.yaml', baseUrl: 'https://api.example.com' });
    expect(await runCli(['config', 'validate'], { cwd: dir })).to.deep.include({
      code: 0,
      stdout: '.gatehouse-scanner.yml: valid (scan openapi of openapi.yaml)\n',
    });
  });

  it('exits 1 with one line naming every problem: unknown keys, values flags would refuse, unset variables', async () => {
    await write('scanner.yml', { target, reportFormat: 'pdf', jwtSecretFile: 'x' });
    const unknown = await runCli(['config', 'validate', 'scanner.yml'], { cwd: dir });
    expect(unknown.code).to.equal(1);
    expect(unknown.stdout).to.equal('');
    expect(unknown.stderr).to.match(
      /^scanner: scanner\.yml: unknown key jwtSecretFile \(did you mean jwtSecretsFile\?\)/,
    );
    await write('scanner.yml', { target, reportFormat: 'pdf', severityThreshold: 11 });
    const values = await runCli(['config', 'validate', 'scanner.yml'], { cwd: dir });
    expect(values.code).to.equal(1);
    expect(values.stderr.trim().split('\n')).to.have.length(1);
    expect(values.stderr).to.include('reportFormat (scanner.yml)').and.include('severityThreshold (scanner.yml)');
    await write('scanner.yml', { target, headers: 'X-Key: ${KEY}' });
    expect(await runCli(['config', 'validate', 'scanner.yml'], { cwd: dir })).to.deep.include({
      code: 1,
      stderr: 'scanner: scanner.yml: ${KEY} in headers: that variable is not set\n',
    });
  });

  it('reads identities in the model’s words, each credential as the scan would, env:NAME included', async () => {
    await write('scanner.yml', {
      target,
      identities: [
        { name: 'alice', header: 'Authorization: Bearer ${ALICE_TOKEN}' },
        { name: 'root', role: 'admin', login: { username: 'root', password: 'env:ROOT_PASSWORD' } },
        'bob:user=X-Api-Key: key-b',
      ],
    });
    const env = { ALICE_TOKEN: 'a', ROOT_PASSWORD: 'p' };
    expect(await runCli(['config', 'validate', 'scanner.yml'], { cwd: dir, env })).to.deep.include({
      code: 0,
      stdout: `scanner.yml: valid (scan curl of ${target}, 3 identities)\n`,
    });
    const unset = await runCli(['config', 'validate', 'scanner.yml'], { cwd: dir, env: { ALICE_TOKEN: 'a' } });
    expect(unset.code).to.equal(1);
    expect(unset.stderr).to.match(/root.*environment variable ROOT_PASSWORD is not set/);
    await write('scanner.yml', { target, identities: { alice: { role: 'user', token: 'x' } } });
    const shape = await runCli(['config', 'validate', 'scanner.yml'], { cwd: dir });
    expect(shape.code).to.equal(1);
    expect(shape.stderr).to.match(/identities must list NAME\[:role\]=CREDENTIAL texts or \{name, role\?, header/);
  });

  it('accepts the README’s example', async () => {
    const readme = await readFile(fromRoot('README.md'), 'utf8');
    const example = /```yaml\n(# \.gatehouse-scanner\.yml[^\n]*\n[\s\S]*?)```/.exec(readme)![1];
    await writeFile(join(dir, '.gatehouse-scanner.yml'), example);
    const result = await runCli(['config', 'validate'], { cwd: dir, env: { API_TOKEN: 'a', ADMIN_TOKEN: 'b' } });
    expect(result, result.stderr).to.deep.include({ code: 0, stderr: '' });
  });

  it('exits 1 for malformed suppressions, naming the entry', async () => {
    await write('scanner.yml', { target, suppressions: [{ fingerprint: 'abc', reason: '' }] });
    const result = await runCli(['config', 'validate', 'scanner.yml'], { cwd: dir });
    expect(result.code).to.equal(1);
    expect(result.stderr).to.match(/^scanner: scanner\.yml: suppressions.*0.*fingerprint/);
  });

  it('checks the --suppressions file a config names', async () => {
    await write('scanner.yml', { target, suppressions: 'accepted.yml' });
    await writeFile(join(dir, 'accepted.yml'), '- fingerprint: nope\n');
    const result = await runCli(['config', 'validate', 'scanner.yml'], { cwd: dir });
    expect(result.code).to.equal(1);
    expect(result.stderr).to.match(/^scanner: --suppressions accepted\.yml: /);
  });

  it('exits 1 when there is no file to check, or more than one is named', async () => {
    expect(await runCli(['config', 'validate'], { cwd: dir })).to.deep.include({
      code: 1,
      stderr: 'scanner: no .gatehouse-scanner.yml here: name the file (scanner config validate <file>)\n',
    });
    expect((await runCli(['config', 'validate', 'missing.yml'], { cwd: dir })).stderr).to.equal(
      'scanner: missing.yml: cannot be read (ENOENT)\n',
    );
    expect((await runCli(['config', 'validate', 'a.yml', 'b.yml'], { cwd: dir })).code).to.equal(1);
  });

  it('prints its help with exit 0', async () => {
    const result = await runCli(['config', 'validate', '--help'], { cwd: dir });
    expect(result.code).to.equal(0);
    expect(result.stdout).to.match(/^Usage: scanner config validate \[<file>\]/);
  });
});
