/**
 * Group-committed inserts and deletes on a real database: concurrent writes go in one command, a document the
 * server refuses fails only its own writer (as a duplicate key the repositories recognise), and an error that leaves
 * the batch's outcome unknown fails every writer of it.
 */
import { expect } from 'chai';
import mongoose, { type Connection } from 'mongoose';
import { batchedDeletes, batchedInserts } from '../../../server/db/batched-writes.mongo.js';
import { isDuplicateKey } from '../../../server/db/duplicate-key.js';
import { describeWithMongo, dropDatabase, uniqueDbName } from '../mongo/mongo-test-db.js';

/** The server-side limit of each batch's command, as a store's connection gives it. */
const LIMIT = { maxTimeMS: 5000 };

type Doc = { _id: string; n: number };

/** `collection` with its commands counted (insertMany / deleteMany calls). */
function counted(collection: mongoose.mongo.Collection<Doc>) {
  const calls: string[] = [];
  const proxy = new Proxy(collection, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if ((property === 'insertMany' || property === 'deleteMany') && typeof value === 'function')
        return (...args: unknown[]) => {
          calls.push(property);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      return value;
    },
  });
  return { collection: proxy, calls };
}

describe('batched inserts whose outcome is unknown', () => {
  const { MongoBulkWriteError, MongoNetworkError } = mongoose.mongo;
  /** A collection whose insertMany fails as the driver fails it. */
  const failingWith = (error: Error) =>
    ({ insertMany: () => Promise.reject(error) }) as unknown as mongoose.mongo.Collection<Doc>;
  const writeBoth = (collection: mongoose.mongo.Collection<Doc>) => {
    const inserts = batchedInserts(collection, LIMIT);
    return Promise.allSettled([inserts.write({ _id: 'a', n: 1 }), inserts.write({ _id: 'b', n: 2 })]);
  };
  /** The partial result the driver attaches (what this code reads of it). */
  const nothingInserted = { insertedCount: 0, getWriteConcernError: () => undefined } as never;

  it('fails every writer of the batch with the lost connection the driver wraps, so it reads as a 503', async () => {
    const lost = new MongoNetworkError('connection interrupted');
    const outcomes = await writeBoth(failingWith(new MongoBulkWriteError(lost, nothingInserted)));
    expect(outcomes.map((o) => o.status === 'rejected' && o.reason === lost)).to.deep.equal([true, true]);
  });

  it('fails every writer of a batch whose command was refused, though the driver files it as the first document’s error', async () => {
    const refused = new MongoBulkWriteError(
      { message: 'operation exceeded time limit', code: 50, writeErrors: [{ index: 0, code: 50 }] } as never,
      nothingInserted,
    );
    const inserts = batchedInserts(failingWith(refused), LIMIT);
    const outcomes = await Promise.allSettled(['a', 'b', 'c'].map((_id, n) => inserts.write({ _id, n })));
    // 'a' went alone (nothing was being written): its refusal is its own either way, with the server's code.
    expect(outcomes.map((o) => o.status === 'rejected' && (o.reason as { code?: number }).code)).to.deep.equal([
      50, 50, 50,
    ]);
    // 'b' and 'c' went together: one error for the command does not mean 'c' was written.
    expect(outcomes.slice(1).map((o) => o.status === 'rejected' && o.reason === refused)).to.deep.equal([true, true]);
  });
});

describeWithMongo('batched writes on MongoDB', (uri) => {
  const dbName = uniqueDbName();
  let connection: Connection;
  let docs: mongoose.mongo.Collection<Doc>;

  before(async () => {
    connection = await mongoose.createConnection(uri, { dbName }).asPromise();
    docs = connection.db!.collection<Doc>('batched');
  });
  afterEach(() => docs.deleteMany({}));
  after(async () => {
    await connection.close();
    await dropDatabase(uri, dbName);
  });

  it('inserts the documents of concurrent writers with one command per batch', async () => {
    const { collection, calls } = counted(docs);
    const inserts = batchedInserts(collection, LIMIT);
    await Promise.all(Array.from({ length: 20 }, (_, n) => inserts.write({ _id: `d${n}`, n })));
    expect(await docs.countDocuments()).to.equal(20);
    // The first alone (nothing was being written), the other nineteen gathered behind it.
    expect(calls).to.deep.equal(['insertMany', 'insertMany']);
  });

  it('fails only the writer of a duplicate _id, with an error read as a duplicate key, and inserts the others', async () => {
    await docs.insertOne({ _id: 'taken', n: 0 });
    const inserts = batchedInserts(docs, LIMIT);
    const outcomes = await Promise.allSettled([
      inserts.write({ _id: 'first', n: 1 }),
      inserts.write({ _id: 'second', n: 2 }),
      inserts.write({ _id: 'taken', n: 3 }),
      inserts.write({ _id: 'third', n: 4 }),
    ]);
    expect(outcomes.map((o) => o.status)).to.deep.equal(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    const refused = (outcomes[2] as PromiseRejectedResult).reason as unknown;
    expect(refused).to.be.instanceOf(Error);
    expect(isDuplicateKey(refused)).to.equal(true);
    expect((await docs.find().sort({ _id: 1 }).toArray()).map((d) => [d._id, d.n])).to.deep.equal([
      ['first', 1],
      ['second', 2],
      ['taken', 0],
      ['third', 4],
    ]);
  });

  it('deletes the ids of concurrent writers with one command per batch, ids not there included', async () => {
    await docs.insertMany(Array.from({ length: 10 }, (_, n) => ({ _id: `d${n}`, n })));
    const { collection, calls } = counted(docs);
    const deletes = batchedDeletes(collection as never, LIMIT);
    await Promise.all(['d0', 'd1', 'd2', 'gone', 'd3', 'd3'].map((id) => deletes.write(id)));
    expect((await docs.find().sort({ n: 1 }).toArray()).map((d) => d._id)).to.deep.equal([
      'd4',
      'd5',
      'd6',
      'd7',
      'd8',
      'd9',
    ]);
    expect(calls).to.deep.equal(['deleteMany', 'deleteMany']);
  });
});
