import { expect } from 'chai';
import { createIdp, type RunningIdp } from '../../idp/create-idp.js';
import { clientCredentialsWith } from './support/relying-party.js';

const NEW_SECRET = 'the-new-secret-0123456789abcdef';
const NEWER_SECRET = 'the-newer-secret-0123456789abcdef';

async function call(uri: string, method: string, token?: string, body?: unknown) {
  const response = await fetch(uri, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

interface Registered {
  clientId: string;
  secret: string;
  uri: string;
  rat: string;
  metadata: Record<string, unknown>;
}

describe('idp: client secrets — rotation with an overlap and lifetimes (RFC 7591/7592 PUT)', () => {
  let idp: RunningIdp;
  before(async () => {
    idp = await createIdp({ port: 0, enableRegistration: true, enableTestingApi: true });
  });
  after(() => idp.close());
  afterEach(() => idp.testing!.setClock(0));

  const now = () => Math.floor(Date.now() / 1000) + idp.testing!.clockOffsetSeconds;

  async function register(extra: Record<string, unknown> = {}): Promise<Registered> {
    const answer = await call(`${idp.issuer}/register`, 'POST', undefined, {
      client_name: 'Rotating service',
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      ...extra,
    });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(201);
    const { client_id, client_secret, registration_client_uri, registration_access_token } = answer.body as Record<
      string,
      string
    >;
    return {
      clientId: client_id,
      secret: client_secret,
      uri: registration_client_uri,
      rat: registration_access_token,
      metadata: { client_id, client_name: 'Rotating service', grant_types: ['client_credentials'], response_types: [] },
    };
  }

  /** client_credentials at /token with openid-client (client_secret_basic): the token, or the OAuth error code. */
  const tokenWith = (clientId: string, secret: string) => clientCredentialsWith(idp.issuer, clientId, secret);

  async function introspectWith(clientId: string, secret: string): Promise<number> {
    const response = await fetch(`${idp.issuer}/token/introspection`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ token: 'unknown' }),
    });
    await response.body?.cancel();
    return response.status;
  }

  it('sets a new client_secret sent in a PUT, and the old secret keeps working until the overlap ends', async () => {
    const client = await register();
    const put = await call(client.uri, 'PUT', client.rat, {
      ...client.metadata,
      client_secret: NEW_SECRET,
      client_secret_previous_expires_at: now() + 3600,
    });
    expect(put.status, JSON.stringify(put.body)).to.equal(200);
    expect(put.body).to.include({ client_secret: NEW_SECRET, client_secret_expires_at: 0 });
    expect(put.body.client_secret_previous_expires_at).to.be.closeTo(now() + 3600, 5);
    expect(put.body, 'the previous secret is never shown').to.not.have.property('client_secret_previous');

    expect(await tokenWith(client.clientId, NEW_SECRET)).to.equal('token');
    expect(await tokenWith(client.clientId, client.secret)).to.equal('token');
    expect(await introspectWith(client.clientId, client.secret)).to.equal(200);

    idp.testing!.setClock(3601);
    expect(await tokenWith(client.clientId, client.secret)).to.equal('invalid_client');
    expect(await introspectWith(client.clientId, client.secret)).to.equal(401);
    expect(await tokenWith(client.clientId, NEW_SECRET)).to.equal('token');
  });

  it('rotates at once when the PUT asks for no overlap', async () => {
    const client = await register();
    const put = await call(client.uri, 'PUT', client.rat, { ...client.metadata, client_secret: NEW_SECRET });
    expect(put.status).to.equal(200);
    expect(put.body).to.not.have.property('client_secret_previous_expires_at');
    expect(await tokenWith(client.clientId, client.secret)).to.equal('invalid_client');
    expect(await tokenWith(client.clientId, NEW_SECRET)).to.equal('token');
  });

  it('retires the previous secret when a PUT sets client_secret_previous_expires_at to 0', async () => {
    const client = await register();
    await call(client.uri, 'PUT', client.rat, {
      ...client.metadata,
      client_secret: NEW_SECRET,
      client_secret_previous_expires_at: now() + 3600,
    });
    const retire = await call(client.uri, 'PUT', client.rat, {
      ...client.metadata,
      client_secret_previous_expires_at: 0,
    });
    expect(retire.status).to.equal(200);
    expect(retire.body).to.include({ client_secret: NEW_SECRET });
    expect(retire.body).to.not.have.property('client_secret_previous_expires_at');
    expect(await tokenWith(client.clientId, client.secret)).to.equal('invalid_client');
    expect(await tokenWith(client.clientId, NEW_SECRET)).to.equal('token');
  });

  it('keeps the secret and the overlap through a PUT that only edits metadata, and through a GET sent back', async () => {
    const client = await register();
    const until = now() + 3600;
    await call(client.uri, 'PUT', client.rat, {
      ...client.metadata,
      client_secret: NEW_SECRET,
      client_secret_previous_expires_at: until,
    });
    const edit = await call(client.uri, 'PUT', client.rat, { ...client.metadata, client_name: 'Renamed' });
    expect(edit.body).to.include({
      client_name: 'Renamed',
      client_secret: NEW_SECRET,
      client_secret_previous_expires_at: until,
    });

    const read = await call(client.uri, 'GET', client.rat);
    expect(read.body).to.include({ client_secret: NEW_SECRET, client_secret_previous_expires_at: until });
    expect(read.body).to.not.have.property('client_secret_previous');
    const { registration_access_token: _t, registration_client_uri: _u, client_id_issued_at: _i, ...echo } = read.body;
    const again = await call(client.uri, 'PUT', client.rat, echo);
    expect(again.status, JSON.stringify(again.body)).to.equal(200);
    expect(again.body).to.include({ client_secret: NEW_SECRET, client_secret_previous_expires_at: until });
    expect(await tokenWith(client.clientId, client.secret)).to.equal('token');
  });

  it('holds one previous secret: rotating again during an overlap drops the oldest', async () => {
    const client = await register();
    const overlap = { client_secret_previous_expires_at: now() + 3600 };
    await call(client.uri, 'PUT', client.rat, { ...client.metadata, client_secret: NEW_SECRET, ...overlap });
    await call(client.uri, 'PUT', client.rat, { ...client.metadata, client_secret: NEWER_SECRET, ...overlap });
    expect(await tokenWith(client.clientId, client.secret)).to.equal('invalid_client');
    expect(await tokenWith(client.clientId, NEW_SECRET)).to.equal('token');
    expect(await tokenWith(client.clientId, NEWER_SECRET)).to.equal('token');
  });

  it('refuses a secret whose client_secret_expires_at has passed (set at registration or by a PUT)', async () => {
    const client = await register({ client_secret_expires_at: now() + 86400 });
    expect(await tokenWith(client.clientId, client.secret)).to.equal('token');
    // oidc-provider allows its clock tolerance (15 s) past client_secret_expires_at.
    idp.testing!.setClock(86400 + 30);
    expect(await tokenWith(client.clientId, client.secret)).to.equal('invalid_client');

    idp.testing!.setClock(0);
    const put = await call(client.uri, 'PUT', client.rat, {
      ...client.metadata,
      client_secret: NEW_SECRET,
      client_secret_expires_at: now() + 60,
    });
    expect(put.body).to.include({ client_secret_expires_at: now() + 60 });
    expect(await tokenWith(client.clientId, NEW_SECRET)).to.equal('token');
    idp.testing!.setClock(60 + 30);
    expect(await tokenWith(client.clientId, NEW_SECRET)).to.equal('invalid_client');
  });

  it('answers invalid_client_metadata naming the field for a bad secret, lifetime or overlap', async () => {
    const client = await register();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ client_secret: 'short' }, /client_secret must be 16 to 512 characters/],
      [
        { client_secret_previous_expires_at: 'tomorrow' },
        /client_secret_previous_expires_at must be a non-negative integer/,
      ],
      [{ client_secret_expires_at: -1 }, /client_secret_expires_at must be a non-negative integer/],
      [
        { client_secret: NEW_SECRET, token_endpoint_auth_method: 'none', grant_types: ['authorization_code'] },
        /cannot be given one/,
      ],
    ];
    for (const [fields, description] of cases) {
      const put = await call(client.uri, 'PUT', client.rat, { ...client.metadata, ...fields });
      expect(put.status, JSON.stringify(fields)).to.equal(400);
      expect(put.body.error).to.equal('invalid_client_metadata');
      expect(put.body.error_description).to.match(description);
    }
    expect(await tokenWith(client.clientId, client.secret), 'nothing changed').to.equal('token');
  });

  it('tells a caller without the registration access token nothing, whatever the body', async () => {
    const client = await register();
    const put = await call(client.uri, 'PUT', 'not-the-token', { ...client.metadata, client_secret: 'short' });
    expect(put.status).to.equal(401);
    expect(put.body.error).to.equal('invalid_token');
    expect(await tokenWith(client.clientId, client.secret)).to.equal('token');
  });
});
