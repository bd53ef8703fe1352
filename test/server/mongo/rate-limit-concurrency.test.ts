/**
 * Rate limits under concurrency on the MongoDB store: 600 simultaneous requests against a limit
 * of 60, from one instance and from two, let through at most the limit plus 10 % (slot claims are exact, so 60).
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { migrate } from '../../../server/db/migrate.js';
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
});
