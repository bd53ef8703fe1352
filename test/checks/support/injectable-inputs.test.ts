import { expect } from 'chai';
import { injectableInputs, withInput } from '../../../checks/support/injectable-inputs.js';
import { operation } from './object-test-operation.js';

const orders = operation({
  url: 'https://api.example.com/v1/users/u%201/orders?status=open&api_key=k',
  path: '/users/{userId}/orders',
  pathParameters: [{ name: 'userId', value: 'u 1', given: false }],
  method: 'POST',
  body: JSON.stringify({ note: 'hi', count: 2, address: { city: 'Oslo', lines: ['a'] } }),
  credential: { schemeName: 'key', type: 'apiKey', in: 'query', name: 'api_key', format: 'opaque', value: 'k' },
});

describe('injectableInputs / withInput (checks/support/injectable-inputs.ts)', () => {
  it('lists path parameters, query parameters and JSON body strings up to three keys deep, never the credential', () => {
    expect(injectableInputs(orders).map((i) => `${i.in} ${i.name}=${i.value}`)).to.deep.equal([
      'path userId=u 1',
      'query status=open',
      'body note=hi',
      'body address.city=Oslo',
      'body address.lines.0=a',
    ]);
  });

  it('replaces a path parameter inside the base path, encoded, and leaves the rest of the URL alone', () => {
    const [path] = injectableInputs(orders);
    expect(withInput(orders, path, "u1'")).to.deep.equal({
      url: "https://api.example.com/v1/users/u1'/orders?status=open&api_key=k",
    });
  });

  it('replaces one query parameter, and one body property with any JSON value', () => {
    const [, query, , city] = injectableInputs(orders);
    expect(withInput(orders, query, 'x y').url).to.equal(
      'https://api.example.com/v1/users/u%201/orders?status=x+y&api_key=k',
    );
    expect(JSON.parse(withInput(orders, city, { $ne: null }).body!)).to.deep.equal({
      note: 'hi',
      count: 2,
      address: { city: { $ne: null }, lines: ['a'] },
    });
  });
  it('never offers a body credential (a GraphQL token argument) either: the jwt.* checks attack it there', () => {
    const session = operation({
      url: 'https://api.example.com/graphql',
      method: 'POST',
      body: JSON.stringify({
        query: 'query q($token: String!, $note: String) { s }',
        variables: { token: 'eyJ.t', note: 'n' },
      }),
      inputs: [
        { in: 'body', name: 'token', pointer: ['variables', 'token'], required: true },
        { in: 'body', name: 'note', pointer: ['variables', 'note'], required: false },
      ],
      credential: {
        schemeName: 'token_argument',
        type: 'apiKey',
        in: 'body',
        name: 'token',
        pointer: ['variables', 'token'],
        format: 'jwt',
        value: 'eyJ.t',
      },
    });
    expect(injectableInputs(session).map((i) => `${i.in} ${i.name}=${i.value}`)).to.deep.equal([
      'body variables.note=n',
    ]);
  });
});
