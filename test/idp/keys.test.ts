import { expect } from 'chai';
import { checkPrivateJwks, generateSigningJwks, signingAlgorithm, signingAlgorithms } from '../../idp/keys.js';
import { createMemoryStore } from '../../idp/adapters/memory.js';
import { resolveIdpConfig } from '../../idp/settings.js';
import { resolveSigningKeys as resolveKeys } from '../../idp/signing-keys.js';

const resolveSigningKeys = (store: ReturnType<typeof createMemoryStore>) => resolveKeys(resolveIdpConfig(), store);

describe('idp: signing keys', () => {
  it('generates a private RSA RS256 key first (the default) and an EC P-256 ES256 key, with thumbprint kids', async () => {
    const { keys } = await generateSigningJwks();
    expect(keys).to.have.length(2);
    expect(keys[0]).to.include({ kty: 'RSA', alg: 'RS256', use: 'sig' }).and.have.property('d');
    expect(keys[1]).to.include({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' }).and.have.property('d');
    for (const key of keys) expect(key.kid).to.match(/^[\w-]{43}$/);
    expect(signingAlgorithms({ keys })).to.deep.equal(['RS256', 'ES256']);
  });

  it('generates keys once per store, so instances on one database share them', async () => {
    const store = createMemoryStore();
    const a = await resolveSigningKeys(store);
    const b = await resolveSigningKeys(store);
    expect(b).to.deep.equal(a);
  });

  it('adds one RS256 key, shared by every instance, to a store an earlier version gave a single ES256 key', async () => {
    const store = createMemoryStore();
    const [, es256] = (await generateSigningJwks()).keys;
    await store.initState('jwks', { keys: [es256] });
    const a = await resolveSigningKeys(store);
    const b = await resolveSigningKeys(store);
    expect(a.keys.map((key) => key.kid)).to.deep.equal([es256.kid, a.keys[1].kid]);
    expect(signingAlgorithms(a)).to.deep.equal(['ES256', 'RS256']);
    expect(b).to.deep.equal(a);
  });

  it('leaves a stored set of any other shape as it is', async () => {
    const store = createMemoryStore();
    const [rsa] = (await generateSigningJwks()).keys;
    await store.initState('jwks', { keys: [rsa] });
    expect(await resolveSigningKeys(store)).to.deep.equal({ keys: [rsa] });
  });

  it('refuses public keys, empty sets and duplicate kids', async () => {
    const { keys } = await generateSigningJwks();
    const { d: _d, ...publicKey } = keys[0];
    expect(() => checkPrivateJwks({ keys: [publicKey] })).to.throw('has a public key (key 0)');
    expect(() => checkPrivateJwks({ keys: [] })).to.throw('non-empty "keys"');
    expect(() => checkPrivateJwks({ keys: [keys[0], keys[0]] })).to.throw(`has two keys with kid "${keys[0].kid}"`);
    expect(() => resolveIdpConfig({ jwks: { keys: [publicKey] } })).to.throw(
      'jwks has a public key (key 0); a private signing key is needed',
    );
  });

  it('derives the signing algorithm from the first key', () => {
    expect(signingAlgorithm({ keys: [{ kty: 'RSA' }] })).to.equal('RS256');
    expect(signingAlgorithm({ keys: [{ kty: 'EC', crv: 'P-384' }] })).to.equal('ES384');
    expect(signingAlgorithm({ keys: [{ kty: 'OKP', crv: 'Ed25519' }] })).to.equal('EdDSA');
    expect(signingAlgorithm({ keys: [{ kty: 'RSA', alg: 'PS256' }] })).to.equal('PS256');
  });
});
