import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { startDemo, stopDemos } from '../support/demo-process.js';

const start = (args: string[]) => startDemo('vulnerable-graphql/bin.ts', args, 'the schema as SDL');

describe('npm run demo:vulnerable-graphql (demo/vulnerable-graphql/bin.ts)', function () {
  this.timeout(20_000);
  afterEach(stopDemos);

  it("listens on loopback, prints the users' tokens and a scan graphql command that works", async () => {
    const banner = await start(['--port', '0']).banner;
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
    const banner = await start(['--secure', '--port', '0']).banner;
    expect(banner).to.match(/^Secure twin of the demo GraphQL API on http:\/\/127\.0\.0\.1:\d+/);
    const file = /--schema (\S+)/.exec(banner)![1];
    expect(readFileSync(file, 'utf8')).to.include('type Query');
  });
});
