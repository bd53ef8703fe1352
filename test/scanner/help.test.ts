import { expect } from 'chai';
import { runCli } from './support/run-cli.js';

describe('scanner --help', () => {
  for (const command of [
    [],
    ['scan'],
    ['scan', 'curl'],
    ['scan', 'openapi'],
    ['scan', 'graphql'],
    ['discover', 'api'],
    ['checks', 'list'],
    ['report', 'validate'],
    ['report', 'merge'],
  ]) {
    it(`prints usage for "${['scanner', ...command, '--help'].join(' ')}" on stdout and exits 0`, async () => {
      const result = await runCli([...command, '--help']);
      expect(result.code).to.equal(0);
      expect(result.stderr).to.equal('');
      expect(result.stdout).to.match(new RegExp(`^Usage: scanner ${command.join(' ')}`.trim()));
    });
  }

  it('documents every curl flag of docs/architecture.md §2.1 and the exit codes in scan curl --help', async () => {
    const { stdout } = await runCli(['scan', 'curl', '--help']);
    for (const flag of [
      '--request',
      '--data',
      '--data-raw',
      '--data-binary',
      '--json',
      '--header',
      '--cookie',
      '--user',
      '--oauth2-bearer',
      '--user-agent',
      '--referer',
      '--insecure',
      '--cacert',
      '--cert',
      '--key',
      '--proxy',
      '--connect-timeout',
      '--max-time',
      '--location',
      '--max-redirs',
      '--scans',
      '--exclude-scans',
      '--checks-dir',
      '--report-format',
      '--report-transport',
      '--report-file',
      '--report-url',
      '--severity-threshold',
      '--only-scans-above-threshold',
      '--rate',
      '--concurrency',
      '--no-progress',
    ]) {
      expect(stdout, flag).to.include(flag);
    }
    expect(stdout).to.include('Exit codes: 0 scan completed');
  });

  it('refuses an unknown command with one line and exit 1', async () => {
    expect(await runCli(['scna'])).to.deep.equal({
      code: 1,
      stdout: '',
      stderr: 'scanner: unknown command "scna" (see scanner --help)\n',
    });
  });
});
