import { expect } from 'chai';
import type { Adapter } from 'oidc-provider';
import { OIDC_MODELS } from '../../../idp/adapters/store.js';
import { createProvider } from '../../../idp/provider.js';
import { createMemoryStore } from '../../../idp/adapters/memory.js';
import { createAccountDirectory } from '../../../idp/accounts.js';
import { generateSigningJwks } from '../../../idp/keys.js';
import { silentLogger } from '../../../lib/logger.js';

describe('idp: store models', () => {
  it('lists every model the installed oidc-provider asks its adapter for (so the store contract covers them all)', async () => {
    const asked = new Set<string>();
    const memory = createMemoryStore();
    const provider = createProvider({
      issuer: 'http://127.0.0.1:1',
      accounts: createAccountDirectory(),
      store: { ...memory, adapter: (name: string): Adapter => (asked.add(name), memory.adapter(name)) },
      jwks: await generateSigningJwks(),
      signingAlg: 'ES256',
      cookieKeys: ['k'],
      clients: [],
      scopes: ['openid'],
      claims: { openid: ['sub'] },
      skipPrompt: false,
      accessTokenFormat: 'opaque',
      idTokenIncludesUserinfoClaims: false,
      registration: { enabled: true },
      trustProxy: false,
      logger: silentLogger,
    });
    // Every model class hangs off the provider; touching its adapter makes oidc-provider ask the factory for it.
    for (const key of Object.getOwnPropertyNames(Object.getPrototypeOf(provider))) {
      if (key === 'app' || key === 'constructor') continue;
      const value = (provider as unknown as Record<string, unknown>)[key];
      if (typeof value === 'function' && 'adapter' in value) void (value as { adapter: unknown }).adapter;
    }
    asked.delete('BaseToken'); // abstract base of the token models, never stored
    expect([...asked].sort()).to.deep.equal([...OIDC_MODELS].sort());
    await memory.close();
  });
});
