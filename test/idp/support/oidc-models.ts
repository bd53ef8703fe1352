/**
 * Every model the installed oidc-provider asks its adapter for, found by asking it: the provider the IdP builds,
 * over a store that notes each model name. The store contract runs for each of them.
 */
import { generateKeyPairSync } from 'node:crypto';
import type { Adapter } from 'oidc-provider';
import { createAccountDirectory } from '../../../idp/accounts.js';
import { createMemoryStore } from '../../../idp/adapters/memory.js';
import { createProvider } from '../../../idp/provider.js';
import { resolveIdpConfig } from '../../../idp/settings.js';

export function oidcModels(): string[] {
  const asked = new Set<string>();
  const memory = createMemoryStore();
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const provider = createProvider({
    config: resolveIdpConfig(),
    issuer: 'http://127.0.0.1:1',
    mountPath: '',
    accounts: createAccountDirectory(),
    store: { ...memory, adapter: (name: string): Adapter => (asked.add(name), memory.adapter(name)) },
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), alg: 'ES256', kid: 'k' }] },
    signingAlg: 'ES256',
    cookieKeys: ['k'],
    clients: [],
    claims: { openid: ['sub'] },
  });
  // Every model class hangs off the provider; touching its adapter makes oidc-provider ask the factory for it.
  for (const key of Object.getOwnPropertyNames(Object.getPrototypeOf(provider))) {
    if (key === 'app' || key === 'constructor') continue;
    const value = (provider as unknown as Record<string, unknown>)[key];
    if (typeof value === 'function' && 'adapter' in value) void (value as { adapter: unknown }).adapter;
  }
  asked.delete('BaseToken'); // abstract base of the token models, never stored
  return [...asked].sort();
}
