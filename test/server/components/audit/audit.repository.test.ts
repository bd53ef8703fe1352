import { createMemoryAuditRepository } from '../../../../server/components/audit/audit.repository.js';
import { createMongoStore } from '../../../../server/store/mongo-store.js';
import { describeWithMongo, dropDatabase, uniqueDbName } from '../../mongo/mongo-test-db.js';
import { auditContract } from './audit-contract.js';

auditContract('memory', async () => ({ audit: createMemoryAuditRepository(), close: async () => undefined }));

describeWithMongo('audit repository on MongoDB', (uri) => {
  const dbName = uniqueDbName();
  after(() => dropDatabase(uri, dbName));
  auditContract('mongo', async () => {
    const store = await createMongoStore(uri, { dbName });
    await store.reset();
    return { audit: store.audit, close: () => store.close() };
  });
});
