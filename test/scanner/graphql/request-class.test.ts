import { expect } from 'chai';
import { graphqlRequestClass } from '../../../scanner/graphql/request-class.js';
import { createSendGate } from '../../../scanner/safety.js';

const post = (body: unknown, type = 'application/json') => ({
  method: 'POST',
  url: 'https://api.example.com/graphql',
  headers: { 'content-type': type },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

describe('the send gate on GraphQL requests (scanner/graphql/request-class.ts)', () => {
  it('classifies a request by the root fields its documents call, however they are sent', () => {
    expect(graphqlRequestClass(post({ query: '{ orders { id } }' }))).to.equal('read');
    expect(graphqlRequestClass(post({ query: 'mutation { createNote(title: "x") { id } }' }))).to.equal('write');
    expect(graphqlRequestClass(post({ query: 'mutation { x: deleteAllNotes }' }))).to.equal('destructive');
    expect(graphqlRequestClass(post([{ query: '{ me }' }, { query: 'mutation { resetDatabase }' }]))).to.equal(
      'destructive',
    );
    expect(
      graphqlRequestClass(post('query=mutation%7BdeleteUser(id%3A1)%7D', 'application/x-www-form-urlencoded')),
    ).to.equal('destructive');
    expect(
      graphqlRequestClass({
        method: 'GET',
        url: 'https://api.example.com/graphql?query=mutation%7BpurgeCache%7D',
        headers: {},
      }),
    ).to.equal('destructive');
    expect(
      graphqlRequestClass(post({ query: 'mutation { ...F } fragment F on Mutation { dropTables ...F }' })),
    ).to.equal('destructive');
  });

  it('leaves requests without a GraphQL document to the REST rules', () => {
    expect(graphqlRequestClass(post({ query: 'red shoes' }))).to.equal(undefined);
    expect(graphqlRequestClass(post({ name: 'x' }))).to.equal(undefined);
  });

  it('refuses a destructive mutation at defaults and sends it with --allow-destructive', () => {
    const request = {
      ...post({ query: 'mutation { deleteAllNotes }' }),
      headers: { 'content-type': 'application/json' },
    };
    expect(createSendGate().refuse(undefined, request)).to.match(/--allow-destructive/);
    expect(createSendGate({ allowDestructive: true }).refuse(undefined, request)).to.equal(undefined);
    expect(createSendGate().refuse(undefined, post({ query: 'mutation { createNote }' }))).to.equal(undefined);
  });
});
