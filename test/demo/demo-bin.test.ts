import { expect } from 'chai';
import { startDemo, stopDemos } from './support/demo-process.js';

/** How the demo bin ends with `args` before it ever listens: the rejection's message (exit code and output). */
async function endingOf(args: string[]): Promise<string> {
  try {
    await startDemo('vulnerable-api/bin.ts', args, 'never printed').banner;
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the demo kept running');
}

describe('the demo APIs’ entry points (demo/demo-bin.ts)', function () {
  this.timeout(20_000);
  afterEach(stopDemos);

  it('print their usage for --help and exit 0', async () => {
    expect(await endingOf(['--help'])).to.equal('exited 0: usage: npm run demo:vulnerable -- [--secure] [--port N]\n');
  });

  it('refuse a port that is not one, and an unknown option, with one line and the usage, exit 1', async () => {
    expect(await endingOf(['--port', '70000'])).to.equal(
      'exited 1: --port 70000: not a port number\nusage: npm run demo:vulnerable -- [--secure] [--port N]\n',
    );
    const unknown = await endingOf(['--bogus']);
    expect(unknown).to.match(/^exited 1: demo:vulnerable: Unknown option '--bogus'/);
    expect(unknown.trim().split('\n')).to.have.length(2);
  });
});
