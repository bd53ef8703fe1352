import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import * as oidc from 'openid-client';
import { createIdp } from '../../idp/create-idp.js';
import { generateSigningJwks } from '../../idp/keys.js';
import { authorizationRequest, discover, exchange } from './support/relying-party.js';
import { Browser } from './support/browser.js';

const REDIRECT = 'http://127.0.0.1:9/callback';

describe('idp: options', () => {
  it("serves extra static clients, e.g. a resource server that introspects the configured client's tokens", async () => {
    const idp = await createIdp({
      port: 0,
      clients: [
        { client_id: 'api', client_secret: 'api-secret', grant_types: [], response_types: [], redirect_uris: [] },
      ],
    });
    try {
      const app = await discover(idp);
      const api = await discover(idp, 'api', 'api-secret');
      const { access_token } = await oidc.clientCredentialsGrant(app, { scope: 'registrations:read' });
      expect(await oidc.tokenIntrospection(api, access_token)).to.include({
        active: true,
        client_id: idp.client.clientId,
      });
    } finally {
      await idp.close();
    }
  });

  it('lets a client revoke only its own tokens (RFC 7009 §2.1)', async () => {
    const idp = await createIdp({
      port: 0,
      clients: [
        {
          client_id: 'other',
          client_secret: 'other-secret',
          grant_types: ['client_credentials'],
          response_types: [],
          redirect_uris: [],
        },
      ],
    });
    try {
      const app = await discover(idp);
      const other = await discover(idp, 'other', 'other-secret');
      const { access_token } = await oidc.clientCredentialsGrant(app, {});
      let failure: unknown;
      await oidc.tokenRevocation(other, access_token).catch((e) => (failure = e));
      expect((failure as oidc.ResponseBodyError).error).to.equal('invalid_request');
      expect((await oidc.tokenIntrospection(app, access_token)).active).to.equal(true);
    } finally {
      await idp.close();
    }
  });

  it('accepts exactly the scopes given with --scopes', async () => {
    const idp = await createIdp({ port: 0, scopes: ['openid', 'email', 'billing:read'] });
    try {
      const metadata = (await discover(idp)).serverMetadata();
      expect(metadata.scopes_supported).to.have.members(['openid', 'email', 'billing:read']);
      // Scopes the provider does not know are dropped from what is granted (RFC 6749 §3.3 lets the server narrow).
      const config = await discover(idp);
      const tokens = await oidc.clientCredentialsGrant(config, { scope: 'registrations:read billing:read' });
      expect((await oidc.tokenIntrospection(config, tokens.access_token)).scope).to.equal('billing:read');
    } finally {
      await idp.close();
    }
  });

  it('builds endpoint URLs from X-Forwarded-* only with --trust-proxy', async () => {
    const [plain, proxied] = await Promise.all([
      createIdp({ port: 0 }),
      createIdp({ port: 0, trustProxy: true, issuer: 'https://idp.example.com' }),
    ]);
    try {
      const headers = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'idp.example.com' };
      const a = (await (await fetch(`${plain.url}/.well-known/openid-configuration`, { headers })).json()) as Record<
        string,
        string
      >;
      const b = (await (await fetch(`${proxied.url}/.well-known/openid-configuration`, { headers })).json()) as Record<
        string,
        string
      >;
      expect(a.token_endpoint).to.equal(`${plain.url}/token`);
      expect(b.token_endpoint).to.equal('https://idp.example.com/token');
    } finally {
      await Promise.all([plain.close(), proxied.close()]);
    }
  });

  it('signs ID tokens with the key it is given (kid rsa-1), and with RS256 by default', async () => {
    const { generateKeyPair, exportJWK } = await import('jose');
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const jwks = { keys: [{ ...(await exportJWK(privateKey)), kid: 'rsa-1', alg: 'RS256', use: 'sig' }] };
    const idp = await createIdp({ port: 0, jwks, redirectUris: [REDIRECT], skipPrompt: true });
    try {
      const config = await discover(idp);
      const request = authorizationRequest(config, idp, {});
      const landed = await new Browser(new URL(idp.url).origin).go((await request.url()).href);
      const tokens = await exchange(config, landed.url, request);
      const header = JSON.parse(Buffer.from(tokens.id_token!.split('.')[0], 'base64url').toString()) as {
        alg: string;
        kid: string;
      };
      expect(header).to.include({ alg: 'RS256', kid: 'rsa-1' });
    } finally {
      await idp.close();
    }
    expect((await generateSigningJwks()).keys[0].alg).to.equal('RS256');
  });

  it('refuses a code exchanged with another redirect_uri than the one authorized', async () => {
    const idp = await createIdp({ port: 0, redirectUris: [REDIRECT, 'http://127.0.0.1:9/other'], skipPrompt: true });
    try {
      const config = await discover(idp);
      const request = authorizationRequest(config, idp, {});
      const landed = await new Browser(new URL(idp.url).origin).go((await request.url()).href);
      const code = new URL(landed.url).searchParams.get('code')!;
      let failure: unknown;
      await oidc
        .authorizationCodeGrant(
          config,
          new URL(`http://127.0.0.1:9/other?code=${code}&state=${request.state}&iss=${encodeURIComponent(idp.issuer)}`),
          { pkceCodeVerifier: request.verifier, expectedState: request.state },
        )
        .catch((e) => (failure = e));
      expect((failure as oidc.ResponseBodyError).error).to.equal('invalid_grant');
    } finally {
      await idp.close();
    }
  });

  it('does not print oidc-provider\'s "Unsupported runtime" warning when loaded', () => {
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', "await import('./idp/provider.ts'); console.error('loaded');"],
      {
        cwd: new URL('../../', import.meta.url),
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    expect(child.stderr).to.contain('loaded').and.not.contain('Unsupported runtime');
  });
});
