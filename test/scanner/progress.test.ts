import { expect } from 'chai';
import { run } from '../../scanner/cli.js';
import { startTarget, type Target } from './support/run-cli.js';

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
