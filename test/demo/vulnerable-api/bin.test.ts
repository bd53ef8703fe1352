import { expect } from 'chai';
import { startDemo, stopDemos } from '../support/demo-process.js';

const start = (args: string[]) => startDemo('vulnerable-api/bin.ts', args, '--as-other');

describe('npm run demo:vulnerable (demo/vulnerable-api/bin.ts)', function () {
  this.timeout(20_000);
  afterEach(stopDemos);

  it("listens on loopback, prints the users' tokens and a scan command that names its OpenAPI document", async () => {
    const banner = await start(['--port', '0']).banner;
    expect(banner).to.match(/^Deliberately VULNERABLE demo API on http:\/\/127\.0\.0\.1:\d+/);
    const origin = /http:\/\/127\.0\.0\.1:\d+/.exec(banner)![0];
    const token = /alice: Bearer (\S+)/.exec(banner)![1];
    expect(banner).to.include(`scan openapi ${origin}/openapi.json --security-schemes bearer=${token}`);
    const users = await fetch(`${origin}/api/users`, { headers: { authorization: `Bearer ${token}` } });
    expect(users.status).to.equal(200);
  });

  it('starts the secure twin with --secure', async () => {
    expect(await start(['--secure', '--port', '0']).banner).to.match(
      /^Secure twin of the demo API on http:\/\/127\.0\.0\.1:\d+/,
    );
  });
});
