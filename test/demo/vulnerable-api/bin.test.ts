import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../../demo/vulnerable-api/bin.ts', import.meta.url));

/** Starts the demo's entry point and resolves with what it printed once it has printed the scan command. */
function start(args: string[]): { child: ChildProcess; banner: Promise<string> } {
  const child = spawn(process.execPath, ['--import', 'tsx', bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const banner = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('--as-other')) resolve(out);
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
  return { child, banner };
}

describe('npm run demo:vulnerable (demo/vulnerable-api/bin.ts)', function () {
  this.timeout(20_000);
  let child: ChildProcess | undefined;
  afterEach(() => {
    child?.kill('SIGTERM');
    child = undefined;
  });

  it("listens on loopback, prints the users' tokens and a scan command that names its OpenAPI document", async () => {
    const started = start(['--port', '0']);
    child = started.child;
    const banner = await started.banner;
    expect(banner).to.match(/^Deliberately VULNERABLE demo API on http:\/\/127\.0\.0\.1:\d+/);
    const origin = /http:\/\/127\.0\.0\.1:\d+/.exec(banner)![0];
    const token = /alice: Bearer (\S+)/.exec(banner)![1];
    expect(banner).to.include(`scan openapi ${origin}/openapi.json --security-schemes bearer=${token}`);
    const users = await fetch(`${origin}/api/users`, { headers: { authorization: `Bearer ${token}` } });
    expect(users.status).to.equal(200);
  });

  it('starts the secure twin with --secure', async () => {
    const started = start(['--secure', '--port', '0']);
    child = started.child;
    expect(await started.banner).to.match(/^Secure twin of the demo API on http:\/\/127\.0\.0\.1:\d+/);
  });
});
