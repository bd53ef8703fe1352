import { expect } from 'chai';
import { inventedIds, objectUrl, referencesObject } from '../../../checks/support/object-reference.js';
import { operation } from './object-test-operation.js';

describe('checks/support/object-reference', () => {
  it('recognises numbers, UUIDs, long hex, ULIDs and prefixed random ids as object ids', () => {
    for (const segment of [
      '42',
      '3f2504e0-4f89-11d3-9a0c-0305e82c3301',
      'a3f9c2b1d4e5f60718293a4b',
      '01ARZ3NDEKTSV4RRFFQ69G5FAV',
      'reg_4fZ0aB9xQ2',
      'ord-7Hq2x9LmP4',
    ]) {
      expect(referencesObject(operation({ url: `http://api.test/items/${segment}` })), segment).to.equal(true);
    }
  });

  it('does not take ordinary words or versions for ids', () => {
    for (const segment of ['orders', 'v1', 'api', 'me', 'policy-profiles', 'change-sets', 'actions', 'submit']) {
      expect(referencesObject(operation({ url: `http://api.test/items/${segment}` })), segment).to.be.a('string');
    }
  });

  it('accepts an OpenAPI path template with a parameter, whatever its value', () => {
    expect(referencesObject(operation({ url: 'http://api.test/orders/abc', path: '/orders/{orderId}' }))).to.equal(
      true,
    );
  });

  it('gives a reason for a curl URL without an id-like segment', () => {
    expect(referencesObject(operation({ url: 'http://api.test/api/v1/me' }))).to.match(/names no object/);
  });

  it('reads a PUT/PATCH/DELETE back at its own URL and a POST action at its object (the path up to the last id)', () => {
    expect(objectUrl(operation({ method: 'PUT', url: 'http://api.test/users/usr_A1ic3x9Q2/profile' }))).to.equal(
      'http://api.test/users/usr_A1ic3x9Q2/profile',
    );
    expect(objectUrl(operation({ method: 'POST', url: 'http://api.test/orders/42/cancel?now=1' }))).to.equal(
      'http://api.test/orders/42',
    );
    expect(
      objectUrl(
        operation({ method: 'POST', url: 'http://api.test/api/teams/acme/notes', path: '/api/teams/{team}/notes' }),
      ),
    ).to.equal('http://api.test/api/teams/acme');
  });

  it('names the generated path parameters that no response of the first identity replaced with a real id', () => {
    const pathParameters = [
      { name: 'orgId', value: 'org_1', given: false },
      { name: 'itemId', value: 'x', given: false },
      { name: 'v', value: '2', given: true },
    ];
    const op = operation({
      url: 'http://api.test/v2/orgs/org_1/items/x',
      path: '/v{v}/orgs/{orgId}/items/{itemId}',
      pathParameters,
      objectIds: { orgId: { value: 'org_1', from: 'GET /orgs' } },
    });
    expect(inventedIds(op)).to.deep.equal(['itemId']);
  });
});
