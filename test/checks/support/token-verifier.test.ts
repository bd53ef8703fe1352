import { expect } from 'chai';
import type { Credential } from '../../../scanner/api.js';
import { tokenVerifier } from '../../../checks/support/token-verifier.js';
import type { BaselineFacts } from '../../../checks/support/auth-baseline-facts.js';
import { operation } from './object-test-operation.js';

const facts: BaselineFacts = {
  requiresCredential: true,
  credentialAccepted: true,
  garbageRejected: true,
  notPermitted: false,
  answersSameWithout: false,
  statuses: { credential: 200, noCredential: 401, garbage: 401 },
  digests: { credential: 'a', noCredential: 'b', garbage: 'b' },
};
const fact = <T>(): T => facts as T;
const header: Credential = {
  schemeName: 'bearer',
  type: 'http',
  scheme: 'bearer',
  in: 'header',
  name: 'Authorization',
  format: 'jwt',
  value: 'eyJ.h',
};
const argument: Credential = {
  schemeName: 'token_argument',
  type: 'apiKey',
  in: 'body',
  name: 'token',
  pointer: ['variables', 'token'],
  format: 'jwt',
  value: 'eyJ.h',
};
const field = (name: string, credential: Credential) =>
  operation({ url: 'https://api.example.com/graphql', id: `POST /graphql query.${name}`, method: 'POST', credential });

describe('tokenVerifier (checks/support/token-verifier.ts)', () => {
  it('gives operations with the same credential, mount and answers one key: one verifier judges them', () => {
    const key = tokenVerifier.key(field('orders', header), fact);
    expect(key).to.be.a('string');
    expect(tokenVerifier.key(field('notes', header), fact)).to.equal(key);
  });

  it('judges a token argument on its own: its field verifies it, not the endpoint', () => {
    expect(tokenVerifier.key(field('session', argument), fact)).to.equal(undefined);
  });
});
