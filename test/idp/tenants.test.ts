import { expect } from 'chai';
import * as oidc from 'openid-client';
import { createIdp, type RunningIdp } from '../../idp/create-idp.js';
import { dropDatabase, mongoTestUrl } from './support/mongo.js';
import { discover, headlessLogin } from './support/relying-party.js';

const REDIRECT = 'http://127.0.0.1:9/callback';

/** One tenant seen as a RunningIdp by the relying-party helpers (same listener, the tenant's issuer and client). */
function tenant(idp: RunningIdp, name: string): RunningIdp {
  return { ...idp, ...idp.tenants![name], url: idp.url };
}

function tenantSuite(label: string, databaseUrl: () => string | undefined) {
  describe(`idp: tenants (--tenants a,b) on ${label}`, () => {
    let idp: RunningIdp;
    let a: RunningIdp;
    let b: RunningIdp;
    before(async function () {
      if (label === 'MongoDB' && !databaseUrl()) this.skip(); // reason printed once by mongoTestUrl: MONGODB_URI is not set
      idp = await createIdp({
        port: 0,
        tenants: ['a', 'b'],
        redirectUris: [REDIRECT],
        skipPrompt: true,
        enableTestingApi: true,
        databaseUrl: databaseUrl(),
      });
      a = tenant(idp, 'a');
      b = tenant(idp, 'b');
    });
    after(async () => {
      await idp?.close();
      const url = databaseUrl();
      if (url) await Promise.all(['a', 'b'].map((t) => dropDatabase(url.replace(/\/([^/?]+)(\?|$)/, `/$1_${t}$2`))));
    });

    it('serves an issuer per tenant under the base URL, each with its own discovery', async () => {
      expect(a.issuer).to.equal(`${idp.url}/a`);
      const metadata = (await discover(b)).serverMetadata();
      expect(metadata).to.include({
        issuer: `${idp.url}/b`,
        token_endpoint: `${idp.url}/b/token`,
        jwks_uri: `${idp.url}/b/jwks`,
      });
    });

    it('gives each tenant its own keys and client', async () => {
      const kids = async (t: RunningIdp) =>
        ((await (await fetch(`${t.issuer}/jwks`)).json()) as { keys: { kid: string }[] }).keys.map((k) => k.kid);
      const [ka, kb] = await Promise.all([kids(a), kids(b)]);
      expect(ka.filter((kid) => kb.includes(kid))).to.deep.equal([]);
      expect(a.client.clientId).to.not.equal(b.client.clientId);
    });

    it("refuses one tenant's tokens at the other's introspection and /me", async () => {
      const configA = await discover(a);
      const configB = await discover(b);
      const { access_token: token } = await oidc.clientCredentialsGrant(configA);
      expect((await oidc.tokenIntrospection(configA, token)).active).to.equal(true);
      expect((await oidc.tokenIntrospection(configB, token)).active).to.equal(false);
      const { tokens } = await headlessLogin(configB, b, { scope: 'openid email' });
      expect(tokens.claims()).to.include({ iss: b.issuer, sub: 'alice' });
      expect(
        (await fetch(`${b.issuer}/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status,
      ).to.equal(200);
      expect(
        (await fetch(`${a.issuer}/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status,
      ).to.equal(401);
    });

    it('gives each tenant its own testing surface', async () => {
      const minted = (await (
        await fetch(`${a.issuer}/_testing/tokens`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"scope":"openid"}',
        })
      ).json()) as { token: string };
      expect((await oidc.tokenIntrospection(await discover(a), minted.token)).active).to.equal(true);
      expect((await oidc.tokenIntrospection(await discover(b), minted.token)).active).to.equal(false);
      a.testing!.fault({ endpoint: 'token', error: 'invalid_grant' });
      expect((await oidc.clientCredentialsGrant(await discover(b))).access_token).to.be.a('string');
      const failure = await oidc.clientCredentialsGrant(await discover(a)).catch((e: oidc.ResponseBodyError) => e);
      expect(failure).to.include({ error: 'invalid_grant' });
    });

    it('answers health at the root and 404 for a path outside every tenant', async () => {
      expect((await fetch(`${idp.url}/readyz`)).status).to.equal(200);
      const outside = await fetch(`${idp.url}/c/.well-known/openid-configuration`);
      expect(outside.status).to.equal(404);
      expect(((await outside.json()) as { error_description: string }).error_description).to.contain('/a, /b');
    });
  });
}

tenantSuite('memory', () => undefined);
const mongoUrl = mongoTestUrl('tenants');
tenantSuite('MongoDB', () => mongoUrl);

describe('idp: tenant names', () => {
  it('refuses a reserved or malformed tenant name before listening', async () => {
    for (const tenants of [['_testing'], ['A B'], ['a', 'a']]) {
      let failure: unknown;
      await createIdp({ port: 0, tenants }).catch((e) => (failure = e));
      expect((failure as Error).message, tenants.join(',')).to.match(/^tenants (must be lower-case|lists "a" twice)/);
    }
  });
});
