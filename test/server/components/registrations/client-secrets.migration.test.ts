/** The followed-secrets migration: a confidential client registered before it gets a secret state rotation can use. */
import { expect } from 'chai';
import type { Connection } from 'mongoose';
import { connectMongo } from '../../../../server/db/connect.js';
import { migrate } from '../../../../server/store/migrate.js';
import { SCHEMA_COLLECTION } from '../../../../server/store/schema-version.js';
import { GRANT_ROLES_SCHEMA_VERSION } from '../../../../server/components/grants/grant-roles.migration.js';
import { newId } from '../../../../server/ids.js';
import { describeWithMongo, dropDatabase, uniqueDbName } from '../../mongo/mongo-test-db.js';

const ORG = 'org_secretsmigration001';

describeWithMongo('the followed client secrets migration', (uri) => {
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

  /** A registration approved and registered at the authorization server by a build before followed secrets. */
  async function provisionedBefore(clientType: 'confidential' | 'public', deleted = false): Promise<string> {
    const id = newId('reg');
    const registeredAt = new Date('2026-01-02T03:04:05Z');
    await connection.db!.collection('registrations').insertOne({
      _id: id as never,
      organizationId: ORG,
      name: id,
      description: '',
      clientType,
      applicationType: clientType === 'public' ? 'spa' : 'web',
      policyProfileId: 'pp_standard',
      config: { redirectUris: ['https://app.example.com/cb'] },
      status: 'active',
      clientId: `client-${id}`,
      revision: 2,
      createdAt: registeredAt,
      updatedAt: registeredAt,
      createdBy: 'alice',
    });
    await connection.db!.collection('provisioned_clients').insertOne({
      _id: id as never,
      organizationId: ORG,
      clientId: `client-${id}`,
      registrationClientUri: `https://as.example/register/client-${id}`,
      registrationAccessTokenEncrypted: 'v1.x.y.z',
      revision: 2,
      createdAt: registeredAt,
      updatedAt: registeredAt,
      ...(deleted && { deletedAt: registeredAt }),
    });
    return id;
  }

  it('gives the confidential ones a secret state issued when they were registered, and nothing to reveal', async () => {
    const confidential = await provisionedBefore('confidential');
    const spa = await provisionedBefore('public');
    const gone = await provisionedBefore('confidential', true);
    await connection
      .db!.collection<{ _id: string }>(SCHEMA_COLLECTION)
      .updateOne({ _id: 'store' }, { $set: { version: GRANT_ROLES_SCHEMA_VERSION - 1 } });
    expect((await migrate(connection)).secretsFollowed).to.equal(1);
    const secretOf = async (id: string) =>
      (await connection.db!.collection<{ _id: string; secret?: unknown }>('registrations').findOne({ _id: id }))
        ?.secret;
    expect(await secretOf(confidential)).to.deep.equal({ version: 1, issuedAt: new Date('2026-01-02T03:04:05Z') });
    expect(await secretOf(spa)).to.equal(undefined);
    expect(await secretOf(gone)).to.equal(undefined);
  });
});
