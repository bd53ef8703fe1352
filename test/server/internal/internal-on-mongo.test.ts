import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { createIdp, type RunningIdp } from '../../../idp/create-idp.js';
import { describeWithMongo, dropDatabase, freshMongoStore, uniqueDbName } from '../mongo/mongo-test-db.js';
import { startInternal, type InternalHarness } from './support/internal-harness.js';

describeWithMongo('the internal surface on MongoDB', (uri) => {
  const dbName = uniqueDbName();
  const iat = `iat-${randomBytes(8).toString('hex')}`;
  let idp: RunningIdp;
  let h: InternalHarness;
  before(async () => {
    idp = await createIdp({ port: 0, enableRegistration: true, registrationInitialAccessToken: iat, skipPrompt: true });
    const store = await freshMongoStore(uri, dbName);
    h = await startInternal({
      store,
      env: {
        PROVISIONING_REGISTRATION_ENDPOINT: idp.registrationEndpoint!,
        PROVISIONING_INITIAL_ACCESS_TOKEN: iat,
        PROVISIONING_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        LOG_LEVEL: 'silent',
      },
      provisioning: {},
    });
  });
  after(async () => {
    await h.close();
    await idp.close();
    await dropDatabase(uri, dbName);
  });

  it('queues, approves with a reason-less approval and a reasoned rejection, provisions, and keeps the audit trail', async () => {
    const org = await h.organization();
    const rita = await h.staffToken('rita', 'gatehouse:review');
    const first = await h.submitted(org);
    const second = await h.submitted(org);
    const queue = await h.internal
      .get(`/internal/v1/review-queue?organizationId=${org.id}`)
      .set('Authorization', `Bearer ${rita}`);
    expect(queue.body.data.map((i: { registration: { id: string } }) => i.registration.id)).to.deep.equal([
      first,
      second,
    ]);

    const approve = await h.internal
      .post(`/internal/v1/organizations/${org.id}/registrations/${first}/actions/approve`)
      .set('Authorization', `Bearer ${rita}`)
      .send({});
    expect(approve.status).to.equal(200);
    const reject = await h.internal
      .post(`/internal/v1/organizations/${org.id}/registrations/${second}/actions/reject`)
      .set('Authorization', `Bearer ${rita}`)
      .send({ reason: 'Duplicate' });
    expect(reject.status).to.equal(200);
    await h.provisioning!.worker.runDue();

    const shown = await h.internal
      .get(`/internal/v1/organizations/${org.id}/registrations/${first}`)
      .set('Authorization', `Bearer ${rita}`);
    expect(shown.body.provisioning.status).to.equal('done');
    expect(shown.body.clientId).to.equal(shown.body.provisioning.clientId);
    const audit = await h.internal
      .get(`/internal/v1/organizations/${org.id}/audit`)
      .set('Authorization', `Bearer ${rita}`);
    expect(audit.body.data.map((e: { action: string }) => e.action)).to.include.members([
      'approve',
      'reject',
      'provisioning_register_done',
    ]);
    expect(audit.body.data.find((e: { action: string }) => e.action === 'reject').reason).to.equal('Duplicate');
    expect(
      (
        await h.internal
          .get(`/internal/v1/review-queue?organizationId=${org.id}`)
          .set('Authorization', `Bearer ${rita}`)
      ).body.data,
    ).to.deep.equal([]);
  });
});
