import { expect } from 'chai';
import { describeInput, operationInputs, type Operation, type OperationInput } from '../../../scanner/api.js';
import { operation } from '../../checks/support/object-test-operation.js';

const line = (input: OperationInput): string =>
  `${describeInput(input)}=${JSON.stringify(input.example)}${input.type ? ` (${input.type})` : ''}${input.sent ? '' : ' unsent'}`;

const orders: Operation = operation({
  url: 'https://api.example.com/v1/users/u%201/orders?status=open&api_key=k',
  path: '/users/{userId}/orders',
  pathParameters: [{ name: 'userId', value: 'u 1', given: false }],
  method: 'POST',
  headers: {
    'Content-Type': ['application/json'],
    Accept: ['application/json'],
    'X-Tenant': ['acme'],
    'User-Agent': ['curl/8'],
  },
  cookies: { lang: 'en', session: 's3cret' },
  body: JSON.stringify({ note: 'hi', count: 2, address: { city: 'Oslo', lines: ['a', 'b'] }, tags: [] }),
  credential: { schemeName: 'key', type: 'apiKey', in: 'query', name: 'api_key', format: 'opaque', value: 'k' },
});

describe('operationInputs (scanner/model/inputs.ts)', () => {
  it('lists path, query, header, cookie and nested JSON body inputs with their values and types, never the credential', () => {
    expect(operationInputs(orders).map(line)).to.deep.equal([
      'path userId="u 1" (string)',
      'query status="open" (string)',
      'header X-Tenant="acme" (string)',
      'cookie lang="en" (string)',
      'cookie session="s3cret" (string)',
      'body note="hi" (string)',
      'body count=2 (integer)',
      'body address.city="Oslo" (string)',
      'body address.lines.0="a" (string)',
      'body tags=[] (array)',
    ]);
  });

  it('names an array item by its array, and leaves transport headers (Accept, User-Agent, Content-Type) out', () => {
    const inputs = operationInputs(orders);
    expect(inputs.find((i) => i.pointer?.join('.') === 'address.lines.0')?.name).to.equal('lines');
    expect(inputs.filter((i) => i.location === 'header').map((i) => i.name)).to.deep.equal(['X-Tenant']);
  });

  it('leaves out the credential when it is a header or a cookie too', () => {
    const bearer = operation({
      url: 'https://api.example.com/a',
      headers: { Authorization: ['Bearer t'], 'X-Request-Id': ['1'] },
      cookies: { sid: 'abc', theme: 'dark' },
      credential: { schemeName: 'c', type: 'apiKey', in: 'cookie', name: 'sid', format: 'opaque', value: 'abc' },
    });
    expect(operationInputs(bearer).map(describeInput)).to.deep.equal(['header X-Request-Id', 'cookie theme']);
  });

  it('lists form and multipart text fields (not file parts) as body inputs with their encoding', () => {
    const form = operation({
      url: 'https://api.example.com/search',
      method: 'POST',
      headers: { 'Content-Type': ['application/x-www-form-urlencoded'] },
      body: 'q=lamp&page=2',
    });
    expect(operationInputs(form).map((i) => `${describeInput(i)}=${String(i.example)} ${i.encoding}`)).to.deep.equal([
      'body q=lamp form',
      'body page=2 form',
    ]);
    const multipart = operation({
      url: 'https://api.example.com/upload',
      method: 'POST',
      headers: { 'Content-Type': ['multipart/form-data; boundary=XyZ'] },
      body: '--XyZ\r\nContent-Disposition: form-data; name="title"\r\n\r\nHoliday\r\n--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--XyZ--\r\n',
    });
    expect(
      operationInputs(multipart).map((i) => `${describeInput(i)}=${String(i.example)} ${i.encoding}`),
    ).to.deep.equal(['body title=Holiday multipart']);
  });

  it('adds declared inputs the operation does not send, with the description’s type, format and example (an object as its properties)', () => {
    const declared = operation({
      url: 'https://api.example.com/files?name=a.txt',
      method: 'POST',
      headers: { 'Content-Type': ['application/json'] },
      body: JSON.stringify({ title: 't' }),
      inputs: [
        { in: 'query', name: 'name', type: 'string', format: 'path' },
        { in: 'query', name: 'next', type: 'string', format: 'uri', example: 'https://example.com/' },
        { in: 'header', name: 'X-Forwarded-Host', type: 'string' },
        { in: 'cookie', name: 'theme', type: 'string' },
        { in: 'body', name: 'title', type: 'string' },
        { in: 'body', name: 'owner', type: 'object' },
        { in: 'body', name: 'email', pointer: ['owner', 'email'], type: 'string', format: 'email' },
      ],
    });
    expect(operationInputs(declared).map(line)).to.deep.equal([
      'query name="a.txt" (string)',
      'body title="t" (string)',
      'query next="https://example.com/" (string) unsent',
      'header X-Forwarded-Host=undefined (string) unsent',
      'cookie theme=undefined (string) unsent',
      'body owner.email=undefined (string) unsent',
    ]);
    expect(operationInputs(declared)[0].format, 'the declaration describes what is sent').to.equal('path');
  });

  it('offers a GraphQL body’s variables as arguments, not its query or operation name', () => {
    const field = operation({
      url: 'https://api.example.com/graphql',
      method: 'POST',
      headers: { 'Content-Type': ['application/json'] },
      body: JSON.stringify({
        query: 'query($host: String!, $input: PingInput){ ping(host: $host, input: $input) }',
        operationName: null,
        variables: { host: 'example.com', input: { count: 1, note: 'x' } },
      }),
      inputs: [
        { in: 'body', name: 'host', pointer: ['variables', 'host'], graphqlType: 'String!', type: 'string' },
        { in: 'body', name: 'input', pointer: ['variables', 'input'], graphqlType: 'PingInput', type: 'object' },
      ],
    });
    expect(operationInputs(field).map(describeInput)).to.deep.equal([
      'argument host',
      'argument input.count',
      'argument input.note',
    ]);
  });

  it('leaves out a token argument that carries the scan’s credential (a body credential), sent or not', () => {
    const session = (variables: Record<string, string>): Operation =>
      operation({
        url: 'https://api.example.com/graphql',
        method: 'POST',
        headers: { 'Content-Type': ['application/json'] },
        body: JSON.stringify({
          query: 'query($token: String!, $note: String){ s(token: $token, note: $note) }',
          variables,
        }),
        inputs: [
          { in: 'body', name: 'token', pointer: ['variables', 'token'], graphqlType: 'String!', type: 'string' },
          { in: 'body', name: 'note', pointer: ['variables', 'note'], graphqlType: 'String', type: 'string' },
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
    expect(operationInputs(session({ token: 'eyJ.t', note: 'n' })).map(describeInput)).to.deep.equal(['argument note']);
    expect(operationInputs(session({ note: 'n' })).map(describeInput)).to.deep.equal(['argument note']);
  });

  it('lists nothing for an operation without inputs, or a body it cannot read', () => {
    expect(operationInputs(operation({ url: 'https://api.example.com/health' }))).to.deep.equal([]);
    const text = operation({
      url: 'https://api.example.com/notes',
      method: 'POST',
      headers: { 'Content-Type': ['text/plain'] },
      body: 'hello',
    });
    expect(operationInputs(text)).to.deep.equal([]);
  });
});
