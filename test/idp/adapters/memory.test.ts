import { expect } from 'chai';
import { createMemoryStore } from '../../../idp/adapters/memory.js';
import type { IdpStore } from '../../../idp/adapters/store.js';
import { adapterContract } from './adapter-contract.js';

describe('idp: memory store', () => {
  let store: IdpStore;
  before(() => {
    store = createMemoryStore();
  });
  after(() => store.close());
  adapterContract(() => store);

  it('sweeps expired entries while writing, without touching live ones', async () => {
    let clock = 0;
    const swept = createMemoryStore(() => clock);
    const adapter = swept.adapter('AccessToken');
    await adapter.upsert('live', { jti: 'live', grantId: 'g' }, 3600);
    for (let i = 0; i < 1500; i += 1) await adapter.upsert(`t${i}`, { jti: `t${i}`, grantId: 'g' }, 1);
    clock = 2000;
    for (let i = 0; i < 600; i += 1) await adapter.upsert(`u${i}`, { jti: `u${i}` }, 3600);
    expect(await adapter.find('live')).to.deep.equal({ jti: 'live', grantId: 'g' });
    expect(await adapter.find('t0')).to.equal(undefined);
    await adapter.revokeByGrantId('g');
    expect(await adapter.find('live')).to.equal(undefined);
    await swept.close();
  });
});
