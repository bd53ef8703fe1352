import { expect } from 'chai';
import { createAccountDirectory, DEMO_USER, parseDefaultUser, parseUsers } from '../../idp/accounts.js';

describe('idp: accounts', () => {
  it('reads users from YAML or JSON, as a list or under "users"', () => {
    expect(parseUsers('- sub: a\n- sub: b\n').map((u) => u.sub)).to.deep.equal(['a', 'b']);
    expect(parseUsers('{"users":[{"sub":"c","email":"c@x"}]}')).to.deep.equal([{ sub: 'c', email: 'c@x' }]);
  });

  it('rejects documents without users, users without sub, and duplicate subs, saying which', () => {
    expect(() => parseUsers('{}')).to.throw('must hold a non-empty list');
    expect(() => parseUsers('- email: x@y\n')).to.throw('has a user without a "sub" (user 0)');
    expect(() => parseUsers('- sub: a\n- sub: a\n')).to.throw('lists two users with sub "a"');
    expect(() => parseUsers('users: [')).to.throw(/is not valid YAML or JSON/);
  });

  it('chooses by sub, then email (any case), then preferred_username, and the default user without a hint', () => {
    const dir = createAccountDirectory([
      { sub: 'a', email: 'A@x.org' },
      { sub: 'b', preferred_username: 'bee' },
    ]);
    expect(dir.choose('b')!.sub).to.equal('b');
    expect(dir.choose('a@X.org')!.sub).to.equal('a');
    expect(dir.choose('bee')!.sub).to.equal('b');
    expect(dir.choose(undefined)!.sub).to.equal('a');
    expect(dir.choose('  ')!.sub).to.equal('a');
    expect(dir.choose('nobody')).to.equal(undefined);
  });

  it('uses --default-user as the default and adds it to the users when it is not listed', () => {
    const dir = createAccountDirectory([{ sub: 'a' }], parseDefaultUser('{"sub":"z","name":"Zed"}'));
    expect(dir.choose()!.sub).to.equal('z');
    expect(dir.users.map((u) => u.sub)).to.deep.equal(['z', 'a']);
  });

  it('has the demo user alice when nothing is configured', async () => {
    const dir = createAccountDirectory();
    expect(dir.defaultUser).to.equal(DEMO_USER);
    const account = await dir.findAccount({} as never, 'alice');
    expect(await account!.claims('userinfo', 'openid email', {}, [])).to.include({
      sub: 'alice',
      email: 'alice@example.com',
    });
    expect(await dir.findAccount({} as never, 'mallory')).to.equal(undefined);
  });
});
