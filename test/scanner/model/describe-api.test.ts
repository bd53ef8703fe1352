import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { describeApi, type ApiDescription } from '../../../scanner/model/describe-api.js';
import { openapiDocument } from '../../../demo/vulnerable-api/openapi.js';
import type { OpenApiDocument } from '../../../scanner/openapi/load-document.js';
import { operationsOf, restaurant, usersAndBooks } from './fixtures/descriptions.js';

function described(document: OpenApiDocument): ApiDescription {
  return describeApi(operationsOf(document), document);
}

/** `in:where->resource.field` for each reference of an operation (`creates` marked). */
function refs(description: ApiDescription, id: string): string[] {
  return description
    .referencesOf(description.byId(id)!)
    .map(
      (r) =>
        `${r.in}:${r.pointer ?? r.name}->${r.resource}.${r.field}${r.creates ? ' creates' : ''}${r.credential ? ' credential' : ''}`,
    );
}

function role(description: ApiDescription, id: string): string {
  const placed = description.placeOf(description.byId(id)!)!;
  return `${placed.resource.name} ${placed.role}${placed.self ? ' self' : ''}${placed.action ? ` ${placed.action}` : ''}`;
}

describe('the API model: resources, references and links read from a description', () => {
  describe('users named in the path, a sign-up that answers only a message', () => {
    const api = described(usersAndBooks());

    it('reads PUT /users/v1/{username}/password as an action on the user the path names', () => {
      expect(role(api, 'PUT /users/v1/{username}/password')).to.equal('user action password');
      expect(refs(api, 'PUT /users/v1/{username}/password')).to.deep.equal([
        'path:username->user.username',
        'body:/password->user.password credential',
      ]);
      expect(refs(api, 'PUT /users/v1/{username}/email')).to.deep.equal([
        'path:username->user.username',
        'body:/email->user.email credential',
      ]);
    });

    it("reads the sign-up's username as the key of the user it creates, linked to {username} and the users' answers", () => {
      expect(role(api, 'POST /users/v1/register')).to.equal('user sign-up');
      expect(refs(api, 'POST /users/v1/register')).to.deep.equal(['body:/username->user.username creates']);
      const link = api.links.find((l) => l.resource === 'user' && l.field === 'username')!;
      expect(link.ends.map((e) => `${e.operationId} ${e.in}`)).to.include.members([
        'POST /users/v1/register body',
        'GET /users/v1/{username} path',
        'PUT /users/v1/{username}/password path',
        'GET /users/v1 response',
      ]);
    });

    it('groups the users list, read, delete and the actions under one resource keyed by username', () => {
      const user = api.resource('user')!;
      expect(user.collections).to.deep.equal(['/users/v1']);
      expect(user.items).to.deep.equal(['/users/v1/{username}']);
      expect(user.keys).to.deep.equal([{ template: '/users/v1/{username}', parameter: 'username', field: 'username' }]);
    });

    it('reads a sign-in as naming nobody: its fields are not references', () => {
      expect(role(api, 'POST /users/v1/login')).to.equal('session sign-in');
      expect(refs(api, 'POST /users/v1/login')).to.deep.equal([]);
    });

    it('reads a create whose client chooses the key (a book title) as creating that key', () => {
      expect(refs(api, 'POST /books/v1')).to.deep.equal(['body:/book_title->book.book_title creates']);
    });
  });

  describe('users named in the body, staff-only operations', () => {
    const api = described(restaurant());

    it("reads the username in a profile update's body as a reference to the user it changes", () => {
      expect(role(api, 'PUT /profile')).to.equal('user update self');
      expect(refs(api, 'PUT /profile')).to.deep.equal(['body:/username->user.username']);
    });

    it('reads a role update as an action on users whose body names the user (the role is a value, not an object)', () => {
      expect(role(api, 'PATCH /users/update_role')).to.equal('user action update_role');
      expect(refs(api, 'PATCH /users/update_role')).to.deep.equal(['body:/username->user.username']);
    });

    it("keys the menu by its objects' id, whatever the path parameter calls it", () => {
      expect(role(api, 'DELETE /menu/{item_id}')).to.equal('menu delete');
      expect(refs(api, 'DELETE /menu/{item_id}')).to.deep.equal(['path:item_id->menu.id']);
    });

    it('reads GET /profile as the me-like read of the users', () => {
      expect(role(api, 'GET /profile')).to.equal('user read self');
    });
  });

  describe('the demo API', () => {
    const document = openapiDocument('http://127.0.0.1:9') as OpenApiDocument;
    const api = described(document);

    it("reads the e-mail an account update sets as the account's recovery address, not as a key naming a user", () => {
      expect(refs(api, 'PATCH /api/account')).to.deep.equal(['body:/email->user.email credential']);
      expect(api.links.some((l) => l.field === 'email')).to.equal(false);
    });

    it("reads {userId} of a user's orders as naming a user by id, and the orders as their own resource", () => {
      expect(role(api, 'GET /api/users/{userId}/orders')).to.equal('order list');
      expect(refs(api, 'GET /api/users/{userId}/orders')).to.deep.equal(['path:userId->user.id']);
    });

    it('does not take "Register a webhook" for a sign-up', () => {
      expect(role(api, 'POST /api/webhooks')).to.equal('webhook create');
    });
  });

  describe("an API whose own objects are registrations (Gatehouse's, schemas/openapi.json)", () => {
    const document = JSON.parse(readFileSync(new URL('../../../schemas/openapi.json', import.meta.url), 'utf8'));
    const api = described(document as OpenApiDocument);
    const base = '/organizations/{organizationId}/registrations';

    it('takes creating, validating and submitting a registration for what they are, not for sign-ups', () => {
      expect(role(api, `POST ${base}`)).to.equal('registration create');
      expect(role(api, `POST ${base}/validation`)).not.to.match(/sign-up/);
      expect(role(api, `POST ${base}/{id}/actions/submit`)).not.to.match(/sign-up/);
      expect(api.operations.filter((o) => api.placeOf(o)?.role === 'sign-up')).to.deep.equal([]);
    });

    it('still takes registerUser and a /signup path for sign-ups', () => {
      for (const [path, operationId] of [
        ['/users', 'registerUser'],
        ['/auth/signup', 'createAccount'],
        ['/members', 'memberRegistration'],
      ]) {
        const single = described({
          openapi: '3.0.3',
          info: { title: 't', version: '1' },
          servers: [{ url: 'http://127.0.0.1:9' }],
          paths: { [path]: { post: { operationId, responses: { 201: { description: 'created' } } } } },
        });
        expect(role(single, `POST ${path}`), operationId).to.equal('user sign-up');
      }
    });
  });

  it('matches a request to the described operation it is an instance of', () => {
    const api = described(usersAndBooks());
    expect(api.operationFor('PUT', 'http://127.0.0.1:9/users/v1/alice/password')?.id).to.equal(
      'PUT /users/v1/{username}/password',
    );
    expect(api.operationFor('GET', 'http://127.0.0.1:9/users/v1')?.id).to.equal('GET /users/v1');
    expect(api.operationFor('PATCH', 'http://127.0.0.1:9/users/v1/alice')).to.equal(undefined);
  });
});
