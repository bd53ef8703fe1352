import { expect } from 'chai';
import { buildSchema } from 'graphql';
import { curlFlagsFrom } from '../../../scanner/curl-args.js';
import { operationFromCurl } from '../../../scanner/curl-operation.js';
import { graphqlOperations } from '../../../scanner/graphql/operations.js';
import { operationClass } from '../../../scanner/operation-class.js';

const SDL = `
enum Status { OPEN CLOSED }
input NoteInput { title: String! url: String tags: [String!] }
type Order { id: ID! total: Int! status: Status! owner: User! }
type User { id: ID! email: String! orders: [Order!]! }
type Query { orders(first: Int, status: Status): [Order!]! order(id: ID!): Order me: User }
type Mutation {
  importFromUrl(url: String!): Order
  addNote(input: NoteInput!): Order
  login(username: String!, password: String!): String
  deleteAllOrders: Boolean
  updateSystemConfig(key: String!): Boolean
}
`;

const base = operationFromCurl(
  'https://api.example.com/graphql',
  curlFlagsFrom({ request: 'POST', header: ['Authorization: Bearer t0k3n'], json: ['{"query":"query{__typename}"}'] }),
);
const operations = graphqlOperations(buildSchema(SDL), base, 'introspection');
const byId = (id: string) => operations.find((o) => o.id === id)!;

describe('GraphQL root fields as operations (scanner/graphql/field-operation.ts)', () => {
  it('makes the endpoint and every query and mutation an operation named by its field', () => {
    expect(operations.map((o) => o.id)).to.deep.equal([
      'POST /graphql',
      'POST /graphql query.orders',
      'POST /graphql query.order',
      'POST /graphql query.me',
      'POST /graphql mutation.importFromUrl',
      'POST /graphql mutation.addNote',
      'POST /graphql mutation.login',
      'POST /graphql mutation.deleteAllOrders',
      'POST /graphql mutation.updateSystemConfig',
    ]);
    expect(byId('POST /graphql query.orders').credential?.value).to.equal('t0k3n');
  });

  it('sends every argument as a variable of a named document that selects the scalar fields', () => {
    const body = JSON.parse(byId('POST /graphql query.orders').body!) as Record<string, unknown>;
    expect(body).to.deep.equal({
      query:
        'query QueryOrders($first: Int, $status: Status) { orders(first: $first, status: $status) { id total status } }',
      variables: { first: 5, status: 'OPEN' },
      operationName: 'QueryOrders',
    });
    expect(byId('POST /graphql query.me').graphql!.document).to.equal('query QueryMe { me { id email } }');
  });

  it('fills input objects and lists by type and describes each argument and input field as a body input', () => {
    const note = byId('POST /graphql mutation.addNote');
    expect(note.graphql!.variables).to.deep.equal({
      input: { title: 'gatehouse-scan', url: 'https://example.com/', tags: ['gatehouse-scan'] },
    });
    expect(note.inputs!.map((i) => [i.name, i.pointer!.join('.'), i.graphqlType, i.type])).to.deep.equal([
      ['input', 'variables.input', 'NoteInput!', 'object'],
      ['title', 'variables.input.title', 'String!', 'string'],
      ['url', 'variables.input.url', 'String', 'string'],
      ['tags', 'variables.input.tags', '[String!]', 'array'],
    ]);
  });

  it('classifies queries as reads, login as a read, deletes and system-wide changes as destructive', () => {
    const classes = Object.fromEntries(operations.map((o) => [o.operationId ?? o.id, operationClass(o)]));
    expect(classes).to.deep.include({
      'query.orders': 'read',
      'mutation.importFromUrl': 'write',
      'mutation.login': 'read',
      'mutation.deleteAllOrders': 'destructive',
      'mutation.updateSystemConfig': 'destructive',
    });
  });
});
