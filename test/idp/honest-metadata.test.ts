import { expect } from 'chai';
import { decodeProtectedHeader } from 'jose';
import * as oidc from 'openid-client';
import { createIdp, type RunningIdp } from '../../idp/create-idp.js';
import { discover, headlessLogin, insecure } from './support/relying-party.js';

const REDIRECT = 'http://127.0.0.1:9/callback';

describe('idp: signing keys per client, honest discovery and client authentication errors', () => {
  let idp: RunningIdp;
  let metadata: oidc.ServerMetadata;
  before(async () => {
    idp = await createIdp({ port: 0, redirectUris: [REDIRECT], skipPrompt: true, enableRegistration: true });
    metadata = (await discover(idp)).serverMetadata();
  });
  after(() => idp.close());

  it('publishes an RS256 and an ES256 key and advertises exactly those ID token algorithms', async () => {
    const { keys } = (await (await fetch(`${idp.issuer}/jwks`)).json()) as { keys: { kty: string; alg: string }[] };
    expect(keys.map((k) => k.alg)).to.deep.equal(['RS256', 'ES256']);
    expect(metadata.id_token_signing_alg_values_supported).to.deep.equal(['RS256', 'ES256']);
  });

  it('signs ID tokens with RS256 by default, and with ES256 for a client registered with id_token_signed_response_alg ES256', async () => {
    const { tokens } = await headlessLogin(await discover(idp), idp);
    expect(decodeProtectedHeader(tokens.id_token!).alg).to.equal('RS256');
    const registered = (
      await oidc.dynamicClientRegistration(
        new URL(idp.issuer),
        { redirect_uris: [REDIRECT], id_token_signed_response_alg: 'ES256' },
        undefined,
        insecure,
      )
    ).clientMetadata();
    const config = await discover(idp, registered.client_id, registered.client_secret);
    const es = await headlessLogin(config, idp);
    expect(decodeProtectedHeader(es.tokens.id_token!).alg).to.equal('ES256');
  });

  it('refuses a registration asking for an algorithm it has no key for, naming the field', async () => {
    const response = await fetch(`${idp.issuer}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [REDIRECT], id_token_signed_response_alg: 'PS384' }),
    });
    expect(response.status).to.equal(400);
    const body = (await response.json()) as { error: string; error_description: string };
    expect(body.error).to.equal('invalid_client_metadata');
    expect(body.error_description).to.contain('id_token_signed_response_alg');
  });

  it('advertises the authorization code flow only: no implicit grant, no hybrid response types, no fragment response mode', () => {
    expect(metadata.response_types_supported).to.deep.equal(['code']);
    expect(metadata.grant_types_supported).to.not.include('implicit');
    expect(metadata.response_modes_supported).to.not.include('fragment');
  });

  for (const endpoint of ['introspection', 'revocation']) {
    it(`answers ${endpoint} without client authentication with 401 invalid_client and a Basic challenge`, async () => {
      const response = await fetch(`${idp.issuer}/token/${endpoint}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: 'whatever' }),
      });
      expect(response.status).to.equal(401);
      expect(response.headers.get('www-authenticate')).to.match(/^Basic/);
      expect(await response.json()).to.include({ error: 'invalid_client' });
    });
  }

  it(`still answers 401 invalid_client for wrong credentials at introspection`, async () => {
    const response = await fetch(`${idp.issuer}/token/introspection`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${idp.client.clientId}:wrong`).toString('base64')}`,
      },
      body: new URLSearchParams({ token: 'whatever' }),
    });
    expect(response.status).to.equal(401);
    expect(await response.json()).to.include({ error: 'invalid_client' });
  });
});

describe('idp: discovery of a client-credentials-only IdP without registration', () => {
  it('lists only the grant the configured client can use', async () => {
    const idp = await createIdp({ port: 0 });
    try {
      const doc = (await (await fetch(idp.discoveryUrl)).json()) as { grant_types_supported: string[] };
      expect(doc.grant_types_supported).to.deep.equal(['client_credentials']);
    } finally {
      await idp.close();
    }
  });
});

describe('idp: JWT access tokens and revocation', () => {
  it('says in discovery that RFC 9068 access tokens are not introspectable or revocable (and says nothing with opaque tokens)', async () => {
    const jwt = await createIdp({ port: 0, accessTokenFormat: 'jwt' });
    const opaque = await createIdp({ port: 0 });
    try {
      const a = (await (await fetch(jwt.discoveryUrl)).json()) as Record<string, unknown>;
      const b = (await (await fetch(opaque.discoveryUrl)).json()) as Record<string, unknown>;
      expect(a.access_token_revocation_note).to.be.a('string').and.contain('revocation does not reach them');
      expect(b).to.not.have.property('access_token_revocation_note');
    } finally {
      await Promise.all([jwt.close(), opaque.close()]);
    }
  });
});
