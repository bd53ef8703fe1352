import { expect } from 'chai';
import {
  canCarry,
  describeInput,
  operationInputs,
  withInput,
  withInputs,
  type Operation,
  type OperationInput,
} from '../../../scanner/api.js';
import { buildWireRequest } from '../../../scanner/probe-request.js';
import { operation } from '../../checks/support/object-test-operation.js';

const orders: Operation = operation({
  url: 'https://api.example.com/v1/users/u%201/orders?status=open&api_key=k',
  path: '/users/{userId}/orders',
  pathParameters: [{ name: 'userId', value: 'u 1', given: false }],
  method: 'POST',
  headers: { 'Content-Type': ['application/json'], 'X-Tenant': ['acme'] },
  cookies: { lang: 'en' },
  body: JSON.stringify({ note: 'hi', count: 2, address: { city: 'Oslo', lines: ['a'] } }),
  credential: { schemeName: 'key', type: 'apiKey', in: 'query', name: 'api_key', format: 'opaque', value: 'k' },
});

const input = (op: Operation, described: string): OperationInput => {
  const found = operationInputs(op).find((i) => describeInput(i) === described);
  if (!found) throw new Error(`no ${described} in ${operationInputs(op).map(describeInput).join(', ')}`);
  return found;
};

describe('withInput / withInputs (scanner/model/input-request.ts)', () => {
  it('replaces a path parameter inside the base path, encoded, and leaves the rest of the URL alone', () => {
    expect(withInput(orders, input(orders, 'path userId'), "u1'")).to.deep.equal({
      url: "https://api.example.com/v1/users/u1'/orders?status=open&api_key=k",
    });
  });

  it('replaces one query parameter, and one nested body property with any JSON value', () => {
    expect(withInput(orders, input(orders, 'query status'), 'x y').url).to.equal(
      'https://api.example.com/v1/users/u%201/orders?status=x+y&api_key=k',
    );
    expect(JSON.parse(withInput(orders, input(orders, 'body address.city'), { $ne: null }).body!)).to.deep.equal({
      note: 'hi',
      count: 2,
      address: { city: { $ne: null }, lines: ['a'] },
    });
    expect(JSON.parse(orders.body!).address.city, 'the operation itself is unchanged').to.equal('Oslo');
  });

  it('sends a header input as that header and a cookie input in the Cookie header, encoded where a cookie cannot hold it', () => {
    const probe = withInputs(orders, [
      { input: input(orders, 'header X-Tenant'), value: "acme'" },
      { input: input(orders, 'cookie lang'), value: 'en; x=1' },
    ]);
    const wire = buildWireRequest(orders, probe);
    expect(wire.headers['X-Tenant']).to.equal("acme'");
    expect(wire.headers.Cookie).to.equal('lang=en%3B%20x=1');
  });

  it('says a header cannot carry a line break', () => {
    expect(canCarry(input(orders, 'header X-Tenant'), 'a\nb')).to.equal(false);
    expect(canCarry(input(orders, 'header X-Tenant'), 'a;b')).to.equal(true);
    expect(canCarry(input(orders, 'body note'), 'a\nb')).to.equal(true);
  });

  it('writes a form or multipart body back with only the changed field different', () => {
    const form = operation({
      url: 'https://api.example.com/search',
      method: 'POST',
      headers: { 'Content-Type': ['application/x-www-form-urlencoded'] },
      body: 'q=lamp&page=2',
    });
    expect(withInput(form, input(form, 'body q'), 'a&b=c').body).to.equal('q=a%26b%3Dc&page=2');
    const multipart = operation({
      url: 'https://api.example.com/upload',
      method: 'POST',
      headers: { 'Content-Type': ['multipart/form-data; boundary=XyZ'] },
      body: '--XyZ\r\nContent-Disposition: form-data; name="title"\r\n\r\nHoliday\r\n--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--XyZ--\r\n',
    });
    expect(withInput(multipart, input(multipart, 'body title'), '{{7*191}}').body).to.equal(
      '--XyZ\r\nContent-Disposition: form-data; name="title"\r\n\r\n{{7*191}}\r\n--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--XyZ--\r\n',
    );
  });

  it('adds a declared input the operation does not send, creating the objects on its way', () => {
    const op = operation({
      url: 'https://api.example.com/files',
      method: 'POST',
      headers: { 'Content-Type': ['application/json'] },
      body: JSON.stringify({ title: 't' }),
      inputs: [
        { in: 'query', name: 'next', type: 'string' },
        { in: 'body', name: 'email', pointer: ['owner', 'email'], type: 'string' },
      ],
    });
    expect(withInput(op, input(op, 'query next'), '//evil.example').url).to.equal(
      'https://api.example.com/files?next=%2F%2Fevil.example',
    );
    expect(JSON.parse(withInput(op, input(op, 'body owner.email'), 'a@b.c').body!)).to.deep.equal({
      title: 't',
      owner: { email: 'a@b.c' },
    });
  });

  it('sets a GraphQL argument inside the variables', () => {
    const field = operation({
      url: 'https://api.example.com/graphql',
      method: 'POST',
      headers: { 'Content-Type': ['application/json'] },
      body: JSON.stringify({ query: 'query($host: String!){ ping(host: $host) }', variables: { host: 'example.com' } }),
      inputs: [{ in: 'body', name: 'host', pointer: ['variables', 'host'], graphqlType: 'String!', type: 'string' }],
    });
    expect(JSON.parse(withInput(field, input(field, 'argument host'), 'x;id').body!).variables).to.deep.equal({
      host: 'x;id',
    });
  });
});
