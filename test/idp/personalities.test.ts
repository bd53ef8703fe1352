import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { decodeJwt } from 'jose';
import * as oidc from 'openid-client';
import { createIdp, type RunningIdp } from '../../idp/create-idp.js';
import { PERSONALITIES } from '../../idp/personalities/registry.js';
import { discover, headlessLogin } from './support/relying-party.js';

const REDIRECT = 'http://127.0.0.1:9/callback';
const API = 'https://api.example.test/';

/**
 * What each provider's public documentation says its tokens carry (the sources are in each fixture). A value is
 * `$string`, `$strings`, `$uuid`, `$absent`, or the exact value; `{issuer}` in a claim name is the issuer.
 */
interface Fixture {
  sources: string[];
  issuer: string;
  request: Record<string, string>;
  idToken: Record<string, unknown>;
  accessToken: Record<string, unknown>;
  machineAccessToken: Record<string, unknown>;
}

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`./fixtures/personalities/${name}.json`, import.meta.url), 'utf8')) as Fixture;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function expectShapes(
  claims: Record<string, unknown>,
  expected: Record<string, unknown>,
  issuer: string,
  what: string,
) {
  for (const [rawName, want] of Object.entries(expected)) {
    const name = rawName.replace('{issuer}', issuer);
    const got = claims[name];
    const where = `${what} claim ${name} in ${JSON.stringify(claims)}`;
    if (want === '$absent') expect(got, where).to.equal(undefined);
    else if (want === '$string') expect(got, where).to.be.a('string').and.not.equal('');
    else if (want === '$uuid') expect(got, where).to.match(UUID);
    else if (want === '$strings') expect(got, where).to.be.an('array').that.is.not.empty;
    else expect(got, where).to.deep.equal(want);
  }
}

for (const name of Object.keys(PERSONALITIES)) {
  describe(`idp: --personality ${name}`, () => {
    const shapes = fixture(name);
    let idp: RunningIdp;
    let config: oidc.Configuration;
    before(async () => {
      idp = await createIdp({
        port: 0,
        personality: [name],
        redirectUris: [REDIRECT],
        skipPrompt: true,
        defaultAudience: API,
        users: [
          {
            sub: 'alice',
            preferred_username: 'alice',
            email: 'alice@example.com',
            roles: ['admin'],
            groups: ['team-a'],
          },
        ],
      });
      config = await discover(idp);
    });
    after(() => idp.close());

    it('has the provider’s issuer form, in discovery and in the tokens', () => {
      expect(idp.issuer).to.match(new RegExp(shapes.issuer));
      expect(config.serverMetadata().issuer).to.equal(idp.issuer);
    });

    it('issues ID and access tokens with the provider’s claim names and shapes (its public documentation)', async () => {
      const { tokens } = await headlessLogin(config, idp, {
        loginHint: 'alice',
        scope: 'openid profile registrations:read',
        extra: shapes.request,
      });
      expectShapes(tokens.claims()!, shapes.idToken, idp.issuer, 'ID token');
      expect(tokens.claims()!.iss).to.equal(idp.issuer);
      const access = decodeJwt(tokens.access_token);
      expectShapes(access, shapes.accessToken, idp.issuer, 'access token');
      expect(access.sub).to.equal('alice');
    });

    it('shapes a client’s own token (client credentials) as the provider does', async () => {
      const tokens = await oidc.clientCredentialsGrant(config, { scope: 'registrations:read', ...shapes.request });
      expectShapes(decodeJwt(tokens.access_token), shapes.machineAccessToken, idp.issuer, 'machine access token');
    });
  });
}

describe('idp: personalities per tenant', () => {
  it('gives each tenant its own: keycloak for one, the plain IdP for the other', async () => {
    const idp = await createIdp({ port: 0, tenants: ['a', 'b'], personality: ['a=keycloak'], skipPrompt: true });
    try {
      expect(idp.tenants!.a.issuer).to.equal(`${idp.url}/realms/a`);
      expect(idp.tenants!.b.issuer).to.equal(`${idp.url}/b`);
      for (const tenant of ['a', 'b'] as const) {
        const discovery = (await (await fetch(idp.tenants![tenant].discoveryUrl)).json()) as { issuer: string };
        expect(discovery.issuer).to.equal(idp.tenants![tenant].issuer);
      }
      expect((await fetch(`${idp.url}/a/.well-known/openid-configuration`)).status).to.equal(404);
    } finally {
      await idp.close();
    }
  });

  it('refuses an unknown personality or tenant, and access tokens default to JWT with one', async () => {
    for (const [personality, message] of [
      [['azure'], /unknown personality "azure"/],
      [['c=okta'], /"c", which is not one of the tenants/],
    ] as const) {
      try {
        await createIdp({ port: 0, personality: [...personality] });
        expect.fail(`${personality.join(',')} should be refused`);
      } catch (error) {
        expect((error as Error).message).to.match(message);
      }
    }
  });
});
