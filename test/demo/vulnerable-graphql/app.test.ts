import { expect } from 'chai';
import { startGraphqlDemo, type GraphqlDemoTarget } from '../../fixtures/targets/graphql-demo-target.js';

async function ask(target: GraphqlDemoTarget, query: string, variables?: Record<string, unknown>): Promise<unknown> {
  const response = await fetch(target.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${target.tokens.alice}` },
    body: JSON.stringify({ query, variables }),
  });
  return response.json();
}

const LOGIN = 'mutation($u: String!, $p: String!) { login(username: $u, password: $p) { token } }';
/** The message of a sign-in's first error, or "signed in". */
async function signIn(target: GraphqlDemoTarget, username: string, password: string): Promise<string> {
  const answer = (await ask(target, LOGIN, { u: username, p: password })) as { errors?: { message: string }[] };
  return answer.errors?.[0]?.message ?? 'signed in';
}

describe('demo/vulnerable-graphql (the vulnerable twin)', () => {
  let target: GraphqlDemoTarget;
  before(async () => (target = await startGraphqlDemo()));
  after(() => target.close());

  it('runs the host given to pingHost through its simulated shell, so "; id" prints a fake id', async () => {
    const answer = await ask(target, 'mutation($h: String!) { pingHost(host: $h) }', { h: 'example.com; id' });
    expect(answer).to.deep.equal({
      data: {
        pingHost:
          'PING example.com: 1 packets transmitted, 1 received, 0% packet loss\nuid=1000(shop) gid=1000(shop) groups=1000(shop)',
      },
    });
  });

  it('reads ../ out of the help directory from its in-memory file set', async () => {
    const answer = (await ask(target, '{ helpDocument(path: "../../../etc/passwd") }')) as {
      data: { helpDocument: string };
    };
    expect(answer.data.helpDocument).to.match(/^root:x:0:0/);
  });

  it("answers bob's order to alice and the admin statistics to an ordinary user", async () => {
    expect(await ask(target, '{ order(id: "o3") { item owner { username } } }')).to.deep.equal({
      data: { order: { item: 'Chair', owner: { username: 'bob' } } },
    });
    expect(await ask(target, '{ adminStats { users } }')).to.deep.equal({ data: { adminStats: { users: 4 } } });
  });

  it('signs the QA account in with its common password, however many wrong ones came first', async () => {
    for (let i = 0; i < 5; i += 1)
      expect(await signIn(target, 'test', 'wrong')).to.equal('invalid username or password');
    expect(await signIn(target, 'test', 'test123')).to.equal('signed in');
  });
});

describe('demo/vulnerable-graphql --secure (the secure twin)', () => {
  let target: GraphqlDemoTarget;
  before(async () => (target = await startGraphqlDemo({ secure: true })));
  after(() => target.close());

  it('accepts a host name only and runs ping alone', async () => {
    const answer = (await ask(target, 'mutation { pingHost(host: "example.com; id") }')) as { data: unknown };
    expect(answer.data).to.deep.equal({ pingHost: null });
    expect(await ask(target, 'mutation { pingHost(host: "example.com") }')).to.deep.equal({
      data: { pingHost: 'PING example.com: 1 packets transmitted, 1 received, 0% packet loss' },
    });
  });

  it('keeps paths inside the help directory and answers errors without internals', async () => {
    expect(await ask(target, '{ helpDocument(path: "../../../etc/passwd") }')).to.deep.include({
      data: { helpDocument: null },
    });
    expect(await ask(target, '{ helpDocument(path: "readme.txt") }')).to.deep.equal({
      data: { helpDocument: 'Welcome to the demo shop. Orders ship within two days.' },
    });
  });

  it("refuses bob's order and the admin statistics to alice", async () => {
    expect(await ask(target, '{ order(id: "o3") { item } }')).to.deep.equal({ data: { order: null } });
    const stats = (await ask(target, '{ adminStats { users } }')) as { errors: { message: string }[] };
    expect(stats.errors[0].message).to.equal('forbidden');
  });

  it('refuses the common password and locks an account after 3 failed sign-ins', async () => {
    expect(await signIn(target, 'test', 'test123')).to.equal('invalid username or password');
    for (let i = 0; i < 2; i += 1)
      expect(await signIn(target, 'test', 'wrong')).to.equal('invalid username or password');
    expect(await signIn(target, 'test', 'wrong')).to.match(/^account locked/);
    expect(await signIn(target, 'alice', 'wrong'), 'other accounts stay open').to.equal('invalid username or password');
  });
});
