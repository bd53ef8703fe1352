import { expect } from 'chai';
import { decodeJwt } from 'jose';
import * as oidc from 'openid-client';
import { createIdp, type RunningIdp } from '../../idp/create-idp.js';
import { serveJsonDocuments, type JsonDocuments } from './support/json-documents.js';
import { discover, headlessLogin, insecure } from './support/relying-party.js';
import { startResourceServer, type ResourceServer } from './support/resource-server.js';

const REDIRECT = 'http://127.0.0.1:9/callback';
const API = 'https://api.example.test/v1/';

describe('idp: protected resources (--resource): RFC 9728 metadata and RFC 8707 audiences', () => {
  let idp: RunningIdp;
  let mcp: ResourceServer;
  let documents: JsonDocuments;
  before(async () => {
    mcp = await startResourceServer('/mcp');
    documents = await serveJsonDocuments();
    idp = await createIdp({
      port: 0,
      redirectUris: [REDIRECT],
      skipPrompt: true,
      accessTokenFormat: 'jwt',
      resources: [mcp.url, API],
      enableClientIdMetadataDocument: true,
    });
    await mcp.publish(`${idp.issuer}/.well-known/oauth-protected-resource/mcp`, idp.issuer);
  });
  after(async () => {
    await idp.close();
    await mcp.close();
    await documents.close();
  });

  it('serves each resource’s metadata at the well-known path plus the resource’s path (RFC 9728 §3.1)', async () => {
    const response = await fetch(`${idp.issuer}/.well-known/oauth-protected-resource/mcp`);
    expect(response.status).to.equal(200);
    expect(response.headers.get('etag')).to.be.a('string');
    const metadata = (await response.json()) as Record<string, unknown>;
    expect(metadata).to.include({ resource: mcp.url });
    expect(metadata.authorization_servers).to.deep.equal([idp.issuer]);
    expect(metadata.scopes_supported).to.include('registrations:read').and.not.include('openid');
    expect(metadata.bearer_methods_supported).to.deep.equal(['header']);

    const api = (await (await fetch(`${idp.issuer}/.well-known/oauth-protected-resource/v1`)).json()) as {
      resource: string;
    };
    expect(api.resource).to.equal(API);
    const unknown = await fetch(`${idp.issuer}/.well-known/oauth-protected-resource/nothing`);
    expect(unknown.status).to.equal(404);
    expect(((await unknown.json()) as { error_description: string }).error_description).to.include(mcp.url);
  });

  it('lists the resources in discovery (RFC 9728 §4 protected_resources)', async () => {
    const config = await discover(idp);
    expect(config.serverMetadata().protected_resources).to.deep.equal([mcp.url, API]);
  });

  it('issues a token asked with resource for that audience, and refuses a resource not listed (invalid_target)', async () => {
    const config = await discover(idp);
    const { tokens } = await headlessLogin(config, idp, { scope: 'openid registrations:read', resource: API });
    expect(decodeJwt(tokens.access_token).aud).to.equal(API);

    const machine = await oidc.clientCredentialsGrant(config, { resource: mcp.url, scope: 'registrations:read' });
    expect(decodeJwt(machine.access_token).aud).to.equal(mcp.url);
    try {
      await oidc.clientCredentialsGrant(config, {
        resource: 'https://elsewhere.example.test/',
        scope: 'registrations:read',
      });
      expect.fail('a resource not listed should be refused');
    } catch (error) {
      expect((error as { error?: string }).error).to.equal('invalid_target');
    }
  });

  it('takes an MCP client from the resource’s 401 to a token it accepts: metadata, discovery, URL client_id, PKCE, resource', async () => {
    // 1. The resource answers 401 and points at its metadata (RFC 9728 §5.1).
    const first = await fetch(mcp.url);
    expect(first.status).to.equal(401);
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(first.headers.get('www-authenticate') ?? '')?.[1];
    expect(metadataUrl).to.equal(mcp.metadataUrl);
    // 2. The metadata names the resource (it must be the URL the client called, RFC 9728 §3.3) and its server.
    const metadata = (await (await fetch(metadataUrl!)).json()) as {
      resource: string;
      authorization_servers: string[];
    };
    expect(metadata.resource).to.equal(mcp.url);
    // 3. The client is a URL: its metadata document, served by the client itself.
    const clientId = documents.set('/client.json', {
      client_id: `${documents.origin}/client.json`,
      client_name: 'MCP client under test',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });
    const config = await oidc.discovery(
      new URL(metadata.authorization_servers[0]),
      clientId,
      undefined,
      oidc.None(),
      insecure,
    );
    // 4. Authorization code + PKCE for that resource (RFC 8707).
    const { tokens } = await headlessLogin(config, idp, {
      redirectUri: REDIRECT,
      scope: 'openid registrations:read',
      resource: metadata.resource,
    });
    // 5. The resource accepts the token: signed by the IdP, for its own URL.
    const answer = await fetch(mcp.url, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(answer.status, await answer.clone().text()).to.equal(200);
    expect(await answer.json()).to.deep.include({ sub: 'alice', scope: 'openid registrations:read' });
  });
});

describe('idp: without --resource', () => {
  it('accepts any resource as an audience and serves no protected resource metadata', async () => {
    const idp = await createIdp({ port: 0, accessTokenFormat: 'jwt' });
    try {
      const config = await discover(idp);
      const token = await oidc.clientCredentialsGrant(config, { resource: 'https://any.example.test/' });
      expect(decodeJwt(token.access_token).aud).to.equal('https://any.example.test/');
      expect(config.serverMetadata().protected_resources).to.equal(undefined);
      expect((await fetch(`${idp.issuer}/.well-known/oauth-protected-resource`)).status).to.equal(404);
    } finally {
      await idp.close();
    }
  });

  it('refuses a resource with a fragment, and two resources whose metadata would share a path', async () => {
    for (const resources of [
      ['https://a.example.test/#x'],
      ['https://a.example.test/mcp', 'https://b.example.test/mcp'],
    ]) {
      try {
        await createIdp({ port: 0, resources });
        expect.fail(`createIdp should have refused ${resources.join(', ')}`);
      } catch (error) {
        expect((error as { code?: string }).code).to.equal('invalid_settings');
        expect((error as Error).message).to.match(/resources (must not have a fragment|gives two resources)/);
      }
    }
  });
});
