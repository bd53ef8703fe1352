/**
 * Webhooks on MongoDB without PROVISIONING_ENCRYPTION_KEY: their signing secrets could not be kept sealed
 * (webhook-signing.ts), so creating one answers 409 naming the setting, and nothing is stored — on the embedded store
 * a key of the process stands in, on a database it would die with the process while the webhook lives on.
 */
import { expect } from 'chai';
import { startService, type ServiceHarness } from '../../../support/service-harness.js';
import { describeWithMongo, dropDatabase, freshMongoStore, uniqueDbName } from '../../mongo/mongo-test-db.js';

describeWithMongo('webhooks on MongoDB without PROVISIONING_ENCRYPTION_KEY', (uri) => {
  const dbName = uniqueDbName();
  let h: ServiceHarness;

  before(async () => {
    const store = await freshMongoStore(uri, dbName);
    h = await startService({ store, env: { LOG_LEVEL: 'silent', WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true' } });
  });
  after(async () => {
    await h?.close();
    await dropDatabase(uri, dbName);
  });

  it('answers 409 to creating a webhook, naming the setting, and stores none', async () => {
    const org = await h.createOrganization('enterprise');
    const owner = `Bearer ${await h.token({ sub: 'alice', scope: 'webhooks:read webhooks:write' })}`;
    const base = `/api/v1/organizations/${org.id}/webhooks`;
    const res = await h.request
      .post(base)
      .set('Authorization', owner)
      .send({ url: 'http://127.0.0.1:9/hook', events: ['registration.submitted'] });
    expect(res.status, JSON.stringify(res.body)).to.equal(409);
    expect(res.body.error.code).to.equal('conflict');
    expect(res.body.error.message).to.include('PROVISIONING_ENCRYPTION_KEY');
    const listed = await h.request.get(base).set('Authorization', owner);
    expect(listed.status).to.equal(200);
    expect(listed.body.data).to.deep.equal([]);
  });
});
