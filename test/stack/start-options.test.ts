/** `npm start`'s flags and environment variables: its --help, bad values, and the state file `npm run token` follows. */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { fromRoot } from '../../lib/project-root.js';
import { runningStack } from '../../stack/running-stack.js';
import { stackSettings } from '../../stack/settings.js';
import { readStackFile, removeStackFile, writeStackFile } from '../../stack/state-file.js';

const run = promisify(execFile);
const bin = fromRoot('stack', 'bin.ts');

describe('npm start options', () => {
  it('lists every flag with its environment variable in --help', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', bin, '--help'], { cwd: fromRoot() });
    for (const s of Object.values(stackSettings.settings))
      expect(stdout).to.match(new RegExp(`\\n\\s+${s.flag}(?: <\\w+>)?\\s[^[]+\\[${s.env}\\]\\n`));
  });

  it('refuses a port that is not a number with one line and exit code 2', async () => {
    const error = (await run(process.execPath, ['--import', 'tsx', bin, '--idp-port', 'eighty'], {
      cwd: fromRoot(),
    }).catch((e: unknown) => e)) as {
      code: number;
      stderr: string;
    };
    expect(error.code).to.equal(2);
    expect(error.stderr.trim().split('\n')).to.have.length(1);
    expect(error.stderr).to.include('--idp-port must be a port number').and.include('--help');
  });

  it('names the variable when the environment holds the bad value, and refuses an unknown log level', async () => {
    const fails = (args: string[], env: Record<string, string>) =>
      run(process.execPath, ['--import', 'tsx', bin, ...args], {
        cwd: fromRoot(),
        env: { ...process.env, ...env },
      }).catch((e: { code: number; stderr: string }) => e) as Promise<{ code: number; stderr: string }>;
    const badPort = await fails([], { INTERNAL_PORT: '70000' });
    expect(badPort.code).to.equal(2);
    expect(badPort.stderr).to.include('INTERNAL_PORT must be a port number from 0 to 65535 (got "70000")');
    expect((await fails(['--log-level', 'loud'], {})).stderr).to.include(
      '--log-level must be one of fatal, error, warn',
    );
  });

  describe('the state file', () => {
    let dir: string;
    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), 'gatehouse-state-'));
    });
    afterEach(async () => {
      await rm(dir, { recursive: true, force: true });
    });
    const urls = {
      idp: 'http://127.0.0.1:9001',
      service: 'http://127.0.0.1:9002',
      internal: 'http://127.0.0.1:9003',
      audience: 'urn:a',
      internalAudience: 'urn:b',
    };

    it('gives npm run token the ports and audiences of the running stack', () => {
      const file = join(dir, 'stack.json');
      writeStackFile(file, urls);
      expect(runningStack({ GATEHOUSE_STACK_FILE: file })).to.deep.equal(urls);
      expect(runningStack({ GATEHOUSE_STACK_FILE: file, API_AUTH_ISSUER: 'http://idp.test' }).idp).to.equal(
        'http://idp.test',
      );
      removeStackFile(file);
      expect(readStackFile(file)).to.equal(undefined);
    });

    it('falls back to the default ports when no stack runs', () => {
      expect(runningStack({ GATEHOUSE_STACK_FILE: join(dir, 'none.json') })).to.include({
        idp: 'http://127.0.0.1:8484',
        service: 'http://127.0.0.1:3000',
      });
    });
  });
});
