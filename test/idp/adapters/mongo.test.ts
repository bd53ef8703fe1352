import { expect } from 'chai';
import { createMongoStore } from '../../../idp/adapters/mongo.js';
import type { IdpStore } from '../../../idp/adapters/store.js';
import { dropDatabase, mongoTestUrl } from '../support/mongo.js';
import { adapterContract } from './adapter-contract.js';

describe('idp: MongoDB store', function () {
  const url = mongoTestUrl('store');
  let store: IdpStore;
  before(async function () {
    if (!url) this.skip(); // reason printed once by mongoTestUrl: MONGODB_URI is not set
    store = await createMongoStore(url);
  });
  after(async () => {
    if (!url) return;
    await store?.close();
    await dropDatabase(url);
  });

  adapterContract(() => store);

  it('answers the readiness ping', async () => {
    await store.ping!();
  });
});

describe('idp: MongoDB store without a server', () => {
  it('fails fast with a readable error when the server cannot be reached', async () => {
    let failure: unknown;
    await createMongoStore('mongodb://127.0.0.1:1/idp_unreachable', { serverSelectionTimeoutMS: 300 }).catch(
      (e) => (failure = e),
    );
    expect(failure).to.be.instanceOf(Error);
    expect((failure as Error).message).to.match(/ECONNREFUSED|connect|Server selection/i);
  });
});
