import { expect } from 'chai';
import { Miniflare } from 'miniflare';
import type { IdpStore } from '../../../idp/adapters/store.js';
import { createD1Store } from '../../../idp/worker/d1-store.js';
import type { D1Database } from '../../../idp/worker/d1-types.js';
import { adapterContract } from '../adapters/adapter-contract.js';

describe('idp worker: D1 store (local D1 on workerd through miniflare)', () => {
  let mf: Miniflare;
  let db: D1Database;
  let store: IdpStore;
  before(async () => {
    mf = new Miniflare({
      modules: true,
      script: 'export default { fetch() { return new Response(null, { status: 404 }); } }',
      d1Databases: ['DB'],
    });
    db = await mf.getD1Database('DB');
    store = createD1Store(db);
  });
  after(() => mf.dispose());
  adapterContract(() => store);

  it('answers the readiness ping', async () => {
    await store.ping!();
  });

  it('shares state records between two stores on the same database (keys are written once)', async () => {
    const other = createD1Store(db);
    const first = await store.initState('jwks-shared', { keys: ['one'] });
    expect(await other.initState('jwks-shared', { keys: ['two'] })).to.deep.equal(first);
  });

  it('sees a token written through another store on the same database', async () => {
    await createD1Store(db).adapter('AccessToken').upsert('cross', { jti: 'cross', grantId: 'g-cross' }, 60);
    expect(await store.adapter('AccessToken').find('cross')).to.deep.equal({ jti: 'cross', grantId: 'g-cross' });
    expect(await store.adapter('RefreshToken').find('cross')).to.equal(undefined);
  });
});
