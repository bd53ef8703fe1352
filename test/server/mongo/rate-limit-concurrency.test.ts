/**
 * Rate limits under concurrency on the MongoDB store: 600 simultaneous requests against a limit
 * of 60, from one instance and from two, let through at most the limit plus 10 % (block claims never exceed it, so
 * at most 60); and a high limit is claimed in blocks, one insert for many requests, never more than the limit.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { migrate } from '../../../server/store/migrate.js';
import { blockSizeFor, RATE_LIMIT_COLLECTION } from '../../../server/components/rate-limits/rate-limits.mongo.js';
import { createMongoStore, type MongoStore } from '../../../server/store/mongo-store.js';
import { describeWithMongo, dropDatabase, uniqueDbName } from './mongo-test-db.js';

describeWithMongo('rate limits under 600 concurrent requests', (uri) => {
  const dbName = uniqueDbName();
  let first: MongoStore;
  let second: MongoStore;

  before(async () => {
    first = await createMongoStore(uri, { dbName });
    await migrate(first.connection);
    second = await createMongoStore(uri, { dbName });
  });
  after(async () => {
    await first.close();
    await second.close();
    await dropDatabase(uri, dbName);
  });

  async function burst(stores: MongoStore[], limit: number): Promise<number> {
    const key = randomBytes(8).toString('hex');
    const results = await Promise.all(
      Array.from({ length: 600 }, (_, i) => stores[i % stores.length].rateLimits.consume(key, limit, 60_000)),
    );
    return results.filter((r) => r.allowed).length;
  }

  it('lets exactly the limit through from one instance', async () => {
    expect(await burst([first], 60)).to.equal(60);
  });

  it('lets no more than the limit plus 10 % through from two instances sharing the counter', async () => {
    const allowed = await burst([first, second], 60);
    expect(allowed).to.be.at.most(66);
    expect(allowed).to.be.at.least(54);
  });

  it('refuses the next request once a window is used up on the other instance', async () => {
    const key = randomBytes(8).toString('hex');
    for (let i = 0; i < 3; i += 1) expect((await first.rateLimits.consume(key, 3, 60_000)).allowed).to.equal(true);
    const refused = await second.rateLimits.consume(key, 3, 60_000);
    expect(refused).to.include({ allowed: false, remaining: 0 });
    expect(refused.resetMs).to.be.within(1, 60_000);
  });

  it('claims a high limit in blocks: one insert admits a block of requests', async () => {
    const key = randomBytes(8).toString('hex');
    expect(blockSizeFor(2000)).to.equal(64);
    for (let i = 0; i < 200; i += 1) expect((await first.rateLimits.consume(key, 2000, 60_000)).allowed).to.equal(true);
    const claims = await first.connection.db!.collection(RATE_LIMIT_COLLECTION).countDocuments({ key });
    expect(claims).to.equal(Math.ceil(200 / 64));
  });

  it('never lets more than a high limit through from two instances, and strands at most a block on each', async () => {
    const key = randomBytes(8).toString('hex');
    let allowed = 0;
    for (let i = 0; i < 2200; i += 1) {
      // The first instance answers only every tenth request: it keeps part of its last block unused.
      const store = i % 10 === 0 ? first : second;
      if ((await store.rateLimits.consume(key, 2000, 60_000)).allowed) allowed += 1;
    }
    expect(allowed).to.be.at.most(2000);
    expect(allowed).to.be.at.least(2000 - 2 * (blockSizeFor(2000) - 1));
  });
});
