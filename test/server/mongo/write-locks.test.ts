/** Write locks (server/db/write-locks.ts): mutual exclusion across connections, takeover of a dead holder's lock. */
import { expect } from 'chai';
import type { Connection } from 'mongoose';
import { AppError } from '../../../lib/app-error.js';
import { connectMongo } from '../../../server/db/connect.js';
import { writeLockModel } from '../../../server/db/write-lock.schema.js';
import { createWriteLocks } from '../../../server/db/write-locks.js';
import { describeWithMongo, dropDatabase, uniqueDbName } from './mongo-test-db.js';

describeWithMongo('write locks', (uri) => {
  const dbName = uniqueDbName();
  let a: Connection;
  let b: Connection;

  before(async () => {
    a = await connectMongo(uri, { dbName });
    b = await connectMongo(uri, { dbName });
  });
  after(async () => {
    await a.close();
    await b.close();
    await dropDatabase(uri, dbName);
  });

  it('never lets two holders on different connections into the same critical section', async () => {
    const locks = [createWriteLocks(a), createWriteLocks(b)];
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        locks[i % 2].withLock('same-key', async () => {
          inside += 1;
          most = Math.max(most, inside);
          await new Promise((resolve) => setTimeout(resolve, 5));
          inside -= 1;
        }),
      ),
    );
    expect(most).to.equal(1);
    expect(await writeLockModel(a).countDocuments({})).to.equal(0);
  });

  it('takes over the lock of a holder that died once its lease is over', async () => {
    await writeLockModel(a).create([{ _id: 'dead-holder', owner: 'crashed', leaseUntil: new Date(Date.now() - 1000) }]);
    expect(await createWriteLocks(b, { waitMs: 2000 }).withLock('dead-holder', async () => 'ran')).to.equal('ran');
  });

  it('answers 409 conflict when a live holder keeps the lock past the wait limit', async () => {
    await writeLockModel(a).create([{ _id: 'busy', owner: 'alive', leaseUntil: new Date(Date.now() + 60_000) }]);
    let error: unknown;
    await createWriteLocks(b, { waitMs: 100 })
      .withLock('busy', async () => undefined)
      .catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(AppError);
    expect([(error as AppError).status, (error as AppError).code]).to.deep.equal([409, 'conflict']);
  });
});
