import { expect } from 'chai';
import * as oidc from 'openid-client';
import { createIdp, type RunningIdp } from '../../idp/create-idp.js';
import { Browser } from './support/browser.js';
import { serveJsonDocuments, type JsonDocuments } from './support/json-documents.js';
import { authorizationRequest, headlessLogin, insecure } from './support/relying-party.js';

const REDIRECT = 'http://127.0.0.1:9/mcp-client/callback';

describe('idp: a URL as client_id (--enable-client-id-metadata-document)', () => {
  let idp: RunningIdp;
  let documents: JsonDocuments;
  let clientId: string;
  before(async () => {
    documents = await serveJsonDocuments();
    clientId = documents.set('/oauth/client.json', {
      client_id: `${documents.origin}/oauth/client.json`,
      client_name: 'An MCP client',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });
    idp = await createIdp({ port: 0, skipPrompt: true, enableClientIdMetadataDocument: true });
  });
  after(async () => {
    await idp.close();
    await documents.close();
  });

  const discoverAs = (id: string) => oidc.discovery(new URL(idp.issuer), id, undefined, oidc.None(), insecure);

  it('says so in discovery', async () => {
    const config = await discoverAs(clientId);
    expect(config.serverMetadata().client_id_metadata_document_supported).to.equal(true);
  });

  it('completes authorization code + PKCE for a client_id served on loopback, fetching its document', async () => {
    const config = await discoverAs(clientId);
    const { tokens } = await headlessLogin(config, idp, { redirectUri: REDIRECT, scope: 'openid' });
    expect(tokens.claims()!.aud).to.equal(clientId);
    expect(documents.requested).to.include('/oauth/client.json');
  });

  it('refuses a redirect URI the document does not list, without redirecting to it', async () => {
    const config = await discoverAs(clientId);
    const request = authorizationRequest(config, idp, { redirectUri: 'http://127.0.0.1:9/elsewhere' });
    const page = await new Browser(new URL(idp.url).origin).go((await request.url()).href);
    expect(page.status).to.equal(400);
    expect(page.html).to.include('invalid_redirect_uri');
  });

  it('does not fetch a document from a host not listed', async () => {
    const config = await discoverAs('https://clients.example.invalid/client.json');
    const request = authorizationRequest(config, idp, { redirectUri: REDIRECT });
    const page = await new Browser(new URL(idp.url).origin).go((await request.url()).href);
    expect(page.status).to.equal(400);
    expect(page.html).to.include('invalid_client').and.include('fetch not allowed');
  });
});

describe('idp: client ID metadata documents are off unless enabled', () => {
  it('treats a URL client_id as an unknown client and advertises nothing', async () => {
    const idp = await createIdp({ port: 0, skipPrompt: true });
    try {
      const config = await oidc.discovery(
        new URL(idp.issuer),
        'https://127.0.0.1:1/c.json',
        undefined,
        oidc.None(),
        insecure,
      );
      expect(config.serverMetadata().client_id_metadata_document_supported).to.equal(undefined);
    } finally {
      await idp.close();
    }
  });

  it('refuses --client-id-metadata-document-host without the feature', async () => {
    try {
      await createIdp({ port: 0, clientIdMetadataDocumentHosts: ['clients.example.com'] });
      expect.fail('createIdp should have refused');
    } catch (error) {
      expect((error as Error).message).to.include('clientIdMetadataDocumentHosts needs enableClientIdMetadataDocument');
    }
  });
});
