import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../../demo/vulnerable-graphql/bin.ts', import.meta.url));

/** Starts the demo's entry point and resolves with what it printed once it has printed the scan command. */
function start(args: string[]): { child: ChildProcess; banner: Promise<string> } {
  const child = spawn(process.execPath, ['--import', 'tsx', bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const banner = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('the schema as SDL')) resolve(out);
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
  return { child, banner };
}

describe('npm run demo:vulnerable-graphql (demo/vulnerable-graphql/bin.ts)', function () {
  this.timeout(20_000);
  let child: ChildProcess | undefined;
  afterEach(() => {
    child?.kill('SIGTERM');
    child = undefined;
  });

  it("listens on loopback, prints the users' tokens and a scan graphql command that works", async () => {
    const started = start(['--port', '0']);
    child = started.child;
    const banner = await started.banner;
    expect(banner).to.match(/^Deliberately VULNERABLE demo GraphQL API on http:\/\/127\.0\.0\.1:\d+\/graphql/);
    const endpoint = /http:\/\/127\.0\.0\.1:\d+\/graphql/.exec(banner)![0];
    const token = /alice: Bearer (\S+)/.exec(banner)![1];
    expect(banner).to.include(`scan graphql ${endpoint} -H 'Authorization: Bearer ${token}'`);
    const me = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: '{"query":"{ me { username } }"}',
    });
    expect(await me.json()).to.deep.equal({ data: { me: { username: 'alice' } } });
    const session = /alice's session JWT \(an hour\): Bearer (\S+)/.exec(banner)![1];
    const asSession = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${session}` },
      body: '{"query":"{ me { username } }"}',
    });
    expect(await asSession.json()).to.deep.equal({ data: { me: { username: 'alice' } } });
  });

  it('starts the secure twin with --secure and names the schema file to scan it with', async () => {
    const started = start(['--secure', '--port', '0']);
    child = started.child;
    const banner = await started.banner;
    expect(banner).to.match(/^Secure twin of the demo GraphQL API on http:\/\/127\.0\.0\.1:\d+/);
    const file = /--schema (\S+)/.exec(banner)![1];
    expect(readFileSync(file, 'utf8')).to.include('type Query');
  });
});
