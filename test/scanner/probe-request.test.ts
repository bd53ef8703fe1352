import { expect } from 'chai';
import type { Operation } from '../../scanner/api.js';
import { curlFlagsFrom } from '../../scanner/curl-args.js';
import { operationFromCurl } from '../../scanner/curl-operation.js';
import { buildWireRequest } from '../../scanner/probe-request.js';

/** An operation whose credential is a token argument (`variables.token` of its JSON body), beside a bearer header. */
function bodyCredentialOperation(): Operation {
  const body = {
    query: 'query($token: String!) { session(token: $token) { id } }',
    variables: { token: 'eyJ.supplied' },
  };
  const operation = operationFromCurl(
    'https://api.example.com/graphql',
    curlFlagsFrom({ request: 'POST', header: ['Authorization: Bearer header-token'], json: [JSON.stringify(body)] }),
  );
  return {
    ...operation,
    credential: {
      schemeName: 'token_argument',
      type: 'apiKey',
      in: 'body',
      name: 'token',
      pointer: ['variables', 'token'],
      format: 'jwt',
      value: 'eyJ.supplied',
      with: operation.credential,
    },
  };
}

const variables = (body: string | undefined): unknown => (JSON.parse(body!) as { variables?: unknown }).variables;

describe('buildWireRequest (scanner/probe-request.ts) with a body credential', () => {
  it('sends the body as it is when the probe says nothing of the credential', () => {
    const wire = buildWireRequest(bodyCredentialOperation());
    expect(variables(wire.body)).to.deep.equal({ token: 'eyJ.supplied' });
    expect(wire.headers.Authorization).to.equal('Bearer header-token');
  });

  it('puts an attack value at the pointer, in the operation body or the one the check sends, the header as given', () => {
    const operation = bodyCredentialOperation();
    const forged = buildWireRequest(operation, { credential: 'eyJ.forged' });
    expect(variables(forged.body)).to.deep.equal({ token: 'eyJ.forged' });
    expect(forged.headers.Authorization).to.equal('Bearer header-token');
    const own = JSON.stringify({ query: 'query($token: String!) { other(token: $token) }', variables: { x: 1 } });
    expect(variables(buildWireRequest(operation, { body: own, credential: 'eyJ.forged' }).body)).to.deep.equal({
      x: 1,
      token: 'eyJ.forged',
    });
  });

  it('sends no credential at all for none: the property removed, and the endpoint credential beside it too', () => {
    const wire = buildWireRequest(bodyCredentialOperation(), { credential: null });
    expect(variables(wire.body)).to.deep.equal({});
    expect(wire.headers).to.not.have.property('Authorization');
  });

  it('sends a body that is not a JSON object unchanged: there is no place for the credential in it', () => {
    expect(buildWireRequest(bodyCredentialOperation(), { body: 'a=b', credential: 'x' }).body).to.equal('a=b');
  });
});
