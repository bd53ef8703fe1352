/** The roles migration: grants stored before roles become owners, read as owners before it runs, and once only. */
import { expect } from 'chai';
import type { Connection } from 'mongoose';
import { connectMongo } from '../../../../server/db/connect.js';
import { migrate } from '../../../../server/store/migrate.js';
import { SCHEMA_COLLECTION } from '../../../../server/store/schema-version.js';
import { createMongoGrantRepository } from '../../../../server/components/grants/grants.mongo.js';
import { GRANT_ROLES_SCHEMA_VERSION } from '../../../../server/components/grants/grant-roles.migration.js';
import { describeWithMongo, dropDatabase, uniqueDbName } from '../../mongo/mongo-test-db.js';

const ORG = 'org_rolesmigration00001';

describeWithMongo('the grant roles migration', (uri) => {
  const dbName = uniqueDbName();
  let connection: Connection;

  before(async () => {
    connection = await connectMongo(uri, { dbName });
    await migrate(connection);
  });
  after(async () => {
    await connection.close();
    await dropDatabase(uri, dbName);
  });

  /** A database a build before roles wrote: grants without a role, the schema version before this one. */
  async function asBeforeRoles(subjects: string[]): Promise<void> {
    const grants = connection.db!.collection('grants');
    await grants.deleteMany({});
    for (const subject of subjects) await grants.insertOne({ organizationId: ORG, subject, createdAt: new Date() });
    await connection
      .db!.collection<{ _id: string }>(SCHEMA_COLLECTION)
      .updateOne({ _id: 'store' }, { $set: { version: GRANT_ROLES_SCHEMA_VERSION - 1 } });
  }

  it('reads a grant without a role as an owner before the migration ran (a rolling upgrade)', async () => {
    await asBeforeRoles(['alice']);
    const grants = createMongoGrantRepository(connection);
    expect((await grants.find('alice', ORG))?.role).to.equal('owner');
  });

  it('makes every grant stored before roles an owner, and leaves roles given since alone', async () => {
    await asBeforeRoles(['alice', 'bob']);
    await createMongoGrantRepository(connection).grant({
      organizationId: ORG,
      subject: 'vic',
      isDefault: false,
      role: 'viewer',
    });
    const report = await migrate(connection);
    expect(report.grantsGivenRoles).to.equal(2);
    const stored = await connection.db!.collection('grants').find({}).sort({ subject: 1 }).toArray();
    expect(stored.map((g) => [g.subject, g.role])).to.deep.equal([
      ['alice', 'owner'],
      ['bob', 'owner'],
      ['vic', 'viewer'],
    ]);
    expect((await migrate(connection)).grantsGivenRoles, 'a second run').to.equal(0);
  });
});
