import { expect } from 'chai';
import { describeApi } from '../../../scanner/model/describe-api.js';
import { createOwnership } from '../../../scanner/model/ownership.js';
import { refuseWrite } from '../../../scanner/model/write-rule.js';
import { operationsOf, restaurant, usersAndBooks } from './fixtures/descriptions.js';

const BASE = 'http://127.0.0.1:9';

describe("the model's write rule (what the send gate refuses before the wire)", () => {
  const users = describeApi(operationsOf(usersAndBooks()), usersAndBooks());
  const shop = describeApi(operationsOf(restaurant()), restaurant());
  const ownership = createOwnership();
  ownership.add({
    resource: 'user',
    field: 'username',
    value: 'alice',
    owner: 'first',
    source: 'self',
    from: 'GET /profile',
  });
  ownership.add({
    resource: 'user',
    field: 'email',
    value: 'alice@example.com',
    owner: 'first',
    source: 'self',
    from: 'GET /profile',
  });
  ownership.add({
    resource: 'user',
    field: 'password',
    value: 'alice-secret',
    owner: 'first',
    source: 'self',
    from: 'its sign-in',
    secret: true,
  });
  const chosen = new Set(['gh_1a2b3c4d']);
  const refuse = (description: typeof users, method: string, path: string, body?: unknown) =>
    refuseWrite(
      { description, ownership, chosen },
      { method, url: `${BASE}${path}`, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) },
    );

  it("refuses a password change for the description's example user, which may be a real account", () => {
    expect(refuse(users, 'PUT', '/users/v1/name1/password', { password: 'x' })).to.equal(
      'PUT /users/v1/{username}/password: {username}="name1" names no object of a scan identity\'s (a description example or a generated value): writes go only to the scan identities\' own objects or those the scan created',
    );
  });

  it("lets a change of the scan identity's own record through only with its own password, or one the check restores", () => {
    expect(refuse(users, 'PUT', '/users/v1/alice/password', { password: 'x' })).to.match(
      /would change a user's password, which the scan could not set back/,
    );
    expect(refuse(users, 'PUT', '/users/v1/alice/password', { password: 'alice-secret' })).to.equal(undefined);
    expect(
      refuseWrite(
        { description: users, ownership, chosen },
        { method: 'PUT', url: `${BASE}/users/v1/alice/password`, body: '{"password":"x"}', restores: true },
      ),
    ).to.equal(undefined);
    expect(refuse(users, 'PUT', '/users/v1/alice/email', { email: 'mail3@mail.com' })).to.match(
      /would set a user's e-mail address to "mail3@mail.com", not a scan identity's own/,
    );
    expect(refuse(users, 'PUT', '/users/v1/alice/email', { email: 'alice@example.com' })).to.equal(undefined);
  });

  it('refuses a profile update whose body names another user, and lets one naming the identity through', () => {
    expect(refuse(shop, 'PUT', '/profile', { username: 'chef', first_name: 'x' })).to.match(
      /^PUT \/profile: body \/username="chef" names no object of a scan identity's/,
    );
    expect(refuse(shop, 'PUT', '/profile', { username: 'alice', first_name: 'x' })).to.equal(undefined);
  });

  it('refuses a sign-up with a key the scan did not choose, and lets a fresh one through', () => {
    expect(refuse(users, 'POST', '/users/v1/register', { username: 'name1', password: 'p' })).to.match(
      /is not a key the scan chose: a create with a description's value may take over someone's user$/,
    );
    expect(refuse(users, 'POST', '/users/v1/register', { username: 'gh_1a2b3c4d', password: 'p' })).to.equal(undefined);
  });

  it('leaves reads, sign-ins and writes to undescribed paths to the other rules', () => {
    expect(refuse(users, 'GET', '/users/v1/name1')).to.equal(undefined);
    expect(refuse(users, 'POST', '/users/v1/login', { username: 'name1', password: 'p' })).to.equal(undefined);
    expect(refuse(users, 'POST', '/elsewhere', { username: 'name1' })).to.equal(undefined);
  });
});
