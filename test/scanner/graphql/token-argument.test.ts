import { expect } from 'chai';
import { buildSchema } from 'graphql';
import { curlFlagsFrom } from '../../../scanner/curl-args.js';
import { operationFromCurl } from '../../../scanner/curl-operation.js';
import { graphqlOperations } from '../../../scanner/graphql/operations.js';
import { buildWireRequest } from '../../../scanner/probe-request.js';
import { secretsOf } from '../../../scanner/secrets.js';
import { hs256Token } from '../../fixtures/targets/jwt-target.js';

const JWT = hs256Token('secret-of-the-issuer', { sub: 'u1' });
const SDL = `
scalar JWT
type Session { userId: ID! }
type Query {
  session(token: String!): Session
  verify(jwt: JWT!, strict: Boolean): Boolean
  products(category: String!): [String!]!
  refresh(accessToken: String = "not-a-jwt"): Session
  renew(refreshToken: String = "${JWT}"): Session
}
`;

function operationsWith(authorization: string) {
  const base = operationFromCurl(
    'https://api.example.com/graphql',
    curlFlagsFrom({
      request: 'POST',
      header: [`Authorization: ${authorization}`],
      json: ['{"query":"query{__typename}"}'],
    }),
  );
  const operations = graphqlOperations(buildSchema(SDL), base, 'introspection');
  return (field: string) => operations.find((o) => o.graphql?.field === field)!;
}

describe('token-typed GraphQL arguments (scanner/graphql/token-argument.ts)', () => {
  it("carry the scan's JWT and become the field's credential, at variables.<argument>", () => {
    const session = operationsWith(`Bearer ${JWT}`)('session');
    expect(session.graphql!.variables).to.deep.equal({ token: JWT });
    expect(session.credential).to.deep.include({ in: 'body', name: 'token', format: 'jwt', value: JWT });
    expect(session.credential!.pointer).to.deep.equal(['variables', 'token']);
  });

  it("keep the endpoint's own credential beside the argument, so only the argument is attacked", () => {
    const session = operationsWith(`Bearer ${JWT}`)('session');
    const wire = buildWireRequest(session, { credential: 'forged' });
    expect(wire.headers.Authorization).to.equal(`Bearer ${JWT}`);
    expect(JSON.parse(wire.body!)).to.deep.include({ variables: { token: 'forged' } });
    expect(buildWireRequest(session, { credential: null }).headers, 'none: neither').to.not.have.property(
      'Authorization',
    );
  });

  it("take a JWT default when the scan's credential is opaque, and both stay secrets of the scan", () => {
    const refresh = operationsWith('Bearer opaque-token-123')('renew');
    expect(refresh.credential).to.deep.include({ in: 'body', name: 'refreshToken', value: JWT });
    expect(buildWireRequest(refresh).headers.Authorization).to.equal('Bearer opaque-token-123');
    expect(secretsOf(refresh, [])).to.include.members([JWT, 'opaque-token-123']);
  });

  it('are told by name (token, jwt, accessToken…) or by a JWT/Token scalar, not by any string argument', () => {
    const field = operationsWith(`Bearer ${JWT}`);
    expect(field('verify').credential).to.deep.include({ in: 'body', name: 'jwt' });
    expect(field('refresh').credential).to.deep.include({ in: 'body', name: 'accessToken' });
    expect(field('products').credential).to.deep.include({ in: 'header', name: 'Authorization' });
  });

  it("stay as filled when the scan's credential is no JWT: there is no token to attack with", () => {
    const session = operationsWith('Bearer opaque-token-123')('session');
    expect(session.credential).to.deep.include({ in: 'header', value: 'opaque-token-123' });
    expect(session.graphql!.variables).to.deep.equal({ token: 'gatehouse-scan-token' });
  });
});
