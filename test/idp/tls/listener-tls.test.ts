import { expect } from 'chai';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as oidc from 'openid-client';
import { createIdp, type RunningIdp } from '../../../idp/create-idp.js';
import { resolveIdpConfig } from '../../../idp/settings.js';
import { startupBanner } from '../../../idp/startup-banner.js';
import { httpsFetch } from '../../../idp/tls/https-fetch.js';
import { generateCertificate } from '../../../idp/tls/self-signed.js';
import { workerConfigFrom } from '../../../idp/worker/worker-options.js';

/** openid-client trusting exactly this CA (the system's are not consulted). */
function trusting(ca: string) {
  return { [oidc.customFetch]: (url: string, init: RequestInit) => httpsFetch(url, init, { ca }) };
}

async function clientCredentials(idp: RunningIdp, ca: string) {
  const config = await oidc.discovery(
    new URL(idp.issuer),
    idp.client.clientId,
    undefined,
    oidc.ClientSecretBasic(idp.client.clientSecret),
    trusting(ca),
  );
  return { config, tokens: await oidc.clientCredentialsGrant(config) };
}

describe('idp: HTTPS', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'idp-tls-test-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  describe('--https (a certificate made at start)', () => {
    let idp: RunningIdp;
    before(async () => {
      idp = await createIdp({ port: 0, https: true, tlsCaOut: join(dir, 'ca.pem'), accessTokenFormat: 'jwt' });
    });
    after(() => idp.close());

    it('serves discovery and tokens over https, trusted through the CA it wrote', async () => {
      expect(idp.issuer).to.match(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(await readFile(join(dir, 'ca.pem'), 'utf8')).to.equal(idp.tls!.ca);
      const { config, tokens } = await clientCredentials(idp, idp.tls!.ca!);
      expect(config.serverMetadata().token_endpoint).to.equal(`${idp.issuer}/token`);
      expect(config.serverMetadata().jwks_uri).to.match(/^https:/);
      expect(tokens.access_token).to.be.a('string');
    });

    it('is refused by a client that does not trust the CA', async () => {
      try {
        await httpsFetch(`${idp.issuer}/.well-known/openid-configuration`);
        expect.fail('an untrusted certificate should be refused');
      } catch (error) {
        expect((error as NodeJS.ErrnoException).code).to.match(/CERT|SELF_SIGNED|UNABLE_TO_VERIFY/);
      }
    });

    it('says at start where the CA is', () => {
      const banner = startupBanner(idp, resolveIdpConfig({ https: true }));
      expect(banner).to.include(`TLS CA:`).and.include(idp.tls!.caFile!);
      expect(banner).to.include(`listening on https://`);
    });
  });

  describe('--tls-cert / --tls-key', () => {
    it('serves the certificate given', async () => {
      const made = generateCertificate(['127.0.0.1']);
      await writeFile(join(dir, 'cert.pem'), made.cert);
      await writeFile(join(dir, 'key.pem'), made.key);
      const idp = await createIdp({ port: 0, tlsCert: join(dir, 'cert.pem'), tlsKey: join(dir, 'key.pem') });
      try {
        expect(idp.tls).to.deep.equal({ ca: undefined, caFile: undefined });
        const { tokens } = await clientCredentials(idp, made.ca);
        expect(tokens.access_token).to.be.a('string');
      } finally {
        await idp.close();
      }
    });

    it('refuses a key that does not match, a missing file, or half a pair, in one line each', async () => {
      const other = generateCertificate();
      await writeFile(join(dir, 'other-key.pem'), other.key);
      await writeFile(join(dir, 'cert2.pem'), generateCertificate().cert);
      const cases: [Record<string, unknown>, string, RegExp][] = [
        [{ tlsCert: join(dir, 'cert2.pem'), tlsKey: join(dir, 'other-key.pem') }, 'invalid_tls', /cannot use .* with/],
        [{ tlsCert: join(dir, 'missing.pem'), tlsKey: join(dir, 'other-key.pem') }, 'invalid_tls', /ENOENT/],
        [{ tlsCert: join(dir, 'cert2.pem') }, 'invalid_settings', /tlsCert needs tlsKey/],
        [{ https: true, issuer: 'http://127.0.0.1:1' }, 'invalid_settings', /issuer must be an https/],
        [{ tlsCaOut: join(dir, 'x.pem') }, 'invalid_settings', /tlsCaOut needs https/],
      ];
      for (const [options, code, message] of cases) {
        try {
          const idp = await createIdp({ port: 0, ...options });
          await idp.close();
          expect.fail(`${JSON.stringify(options)} should be refused`);
        } catch (error) {
          expect((error as { code?: string }).code, JSON.stringify(options)).to.equal(code);
          expect((error as Error).message.split('\n')[0]).to.match(message);
        }
      }
    });
  });

  it('is refused on the edge worker with one line saying why', () => {
    expect(() => workerConfigFrom({ IDP_HTTPS: 'true' })).to.throw(
      /^IDP_HTTPS is not available on the worker: the runtime terminates TLS/,
    );
  });
});
