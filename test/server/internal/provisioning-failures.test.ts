import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import type { Organization } from '../../../server/components/organizations/organizations.model.js';
import {
  ProvisioningCallError,
  type RegistrationClient,
} from '../../../server/components/provisioning/registration-client.js';
import { expectConforms } from '../api/api-fixtures.js';
import { decideRegistration } from '../../../server/components/registrations/review.service.js';
import { startInternal, type InternalHarness } from './support/internal-harness.js';

/** An authorization server scripted per call: each entry answers one call, in order. */
function scriptedServer() {
  const script: (Error | undefined)[] = [];
  const calls: string[] = [];
  let clients = 0;
  const next = (what: string) => {
    calls.push(what);
    const outcome = script.shift();
    if (outcome) throw outcome;
  };
  const client: RegistrationClient = {
    async register() {
      next('register');
      clients += 1;
      return {
        clientId: `as-client-${clients}`,
        registrationClientUri: `https://as.example/register/as-client-${clients}`,
        registrationAccessToken: `rat-${clients}`,
      };
    },
    async update() {
      next('update');
      return {};
    },
    async remove() {
      next('remove');
    },
  };
  return { client, script, calls };
}

describe('provisioning failures and retries', () => {
  let h: InternalHarness;
  let org: Organization;
  let rita: string;
  let adam: string;
  const as = scriptedServer();
  before(async () => {
    h = await startInternal({
      env: {
        PROVISIONING_REGISTRATION_ENDPOINT: 'https://as.example/register',
        PROVISIONING_INITIAL_ACCESS_TOKEN: 'iat',
        PROVISIONING_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        PROVISIONING_RETRY_S: '2',
        PROVISIONING_MAX_ATTEMPTS: '3',
        LOG_LEVEL: 'silent',
      },
      provisioning: { wrapClient: () => as.client },
    });
    org = await h.organization();
    rita = await h.staffToken('rita', 'gatehouse:review');
    adam = await h.staffToken('adam', 'gatehouse:admin');
  });
  after(() => h.close());
  beforeEach(() => {
    as.calls.length = 0;
    as.script.length = 0;
  });

  const show = (id: string) =>
    h.internal.get(`/internal/v1/organizations/${org.id}/registrations/${id}`).set('Authorization', `Bearer ${rita}`);
  async function approved(): Promise<string> {
    const id = await h.submitted(org);
    await h.internal
      .post(`/internal/v1/organizations/${org.id}/registrations/${id}/actions/approve`)
      .set('Authorization', `Bearer ${rita}`)
      .send({});
    return id;
  }

  it('marks a step failed at once when the AS refuses the metadata (4xx), audits it, and an admin retry completes it', async () => {
    as.script.push(new ProvisioningCallError('registration answered 400 (invalid_client_metadata)', true, 400));
    const id = await approved();
    await h.provisioning!.worker.runDue();
    const failed = await show(id);
    expect(failed.body.provisioning.status).to.equal('failed');
    expect(failed.body.provisioning.steps[0]).to.include({
      status: 'failed',
      attempts: 1,
      lastError: 'registration answered 400 (invalid_client_metadata)',
    });
    const audit = await h.deps.store.audit.list({ registrationId: id, limit: 20 });
    // Found by action: the approval's entry and this one may carry the same millisecond, so their order is the ids'.
    expect(audit.find((e) => e.action === 'provisioning_register_failed')).to.include({ actor: 'system:provisioning' });

    const byReviewer = await h.internal
      .post(`/internal/v1/organizations/${org.id}/registrations/${id}/provisioning/retry`)
      .set('Authorization', `Bearer ${rita}`);
    expect(byReviewer.status).to.equal(403);
    const retried = await h.internal
      .post(`/internal/v1/organizations/${org.id}/registrations/${id}/provisioning/retry`)
      .set('Authorization', `Bearer ${adam}`);
    expect(retried.status).to.equal(200);
    await h.provisioning!.worker.runDue();
    const done = await show(id);
    expect(done.body.provisioning.status).to.equal('done');
    expect(done.body.clientId).to.match(/^as-client-/);
    const again = await h.internal
      .post(`/internal/v1/organizations/${org.id}/registrations/${id}/provisioning/retry`)
      .set('Authorization', `Bearer ${adam}`);
    expect(again.status).to.equal(409);
  });

  it('lets an admin enqueue the registration of an approved client that never got a step (approved without provisioning)', async () => {
    const id = await h.submitted(org);
    // Approved by a service without the provisioning hook (not configured then), so no step rides with the decision.
    await decideRegistration({ ...h.deps, provisioning: undefined }, 'approve', {
      organizationId: org.id,
      id,
      reviewer: 'rita',
      assignClientId: false,
    });
    expect((await show(id)).body.provisioning.status).to.equal('none');
    const repaired = await h.internal
      .post(`/internal/v1/organizations/${org.id}/registrations/${id}/provisioning/retry`)
      .set('Authorization', `Bearer ${adam}`);
    expect(repaired.status).to.equal(200);
    await h.provisioning!.worker.runDue();
    expect((await show(id)).body.provisioning.status).to.equal('done');
    expect(as.calls).to.deep.equal(['register']);
  });

  it('has nothing to update or delete for a client approved before provisioning was configured', async () => {
    const id = await h.submitted(org);
    await decideRegistration({ ...h.deps, provisioning: undefined }, 'approve', {
      organizationId: org.id,
      id,
      reviewer: 'rita',
    });
    const res = await h.internal
      .post(`/internal/v1/organizations/${org.id}/registrations/${id}/actions/deprecate`)
      .set('Authorization', `Bearer ${adam}`)
      .send({});
    expect(res.status).to.equal(200);
    await h.provisioning!.worker.runDue();
    expect((await show(id)).body.provisioning.status).to.equal('done');
    expect(as.calls).to.deep.equal([]);
  });

  it('gives up after PROVISIONING_MAX_ATTEMPTS transient failures, backing off in between', async () => {
    for (let i = 0; i < 3; i += 1)
      as.script.push(new ProvisioningCallError('the authorization server is unreachable (TypeError)', false));
    const id = await approved();
    await h.provisioning!.worker.runDue();
    expect((await show(id)).body.provisioning.steps[0]).to.include({ status: 'pending', attempts: 1 });
    h.advance(1000);
    expect(await h.provisioning!.worker.runDue()).to.equal(0);
    h.advance(1500);
    await h.provisioning!.worker.runDue();
    h.advance(4500);
    await h.provisioning!.worker.runDue();
    expect((await show(id)).body.provisioning.steps[0]).to.include({ status: 'failed', attempts: 3 });
    expect(as.calls).to.deep.equal(['register', 'register', 'register']);
  });

  it('holds an update until the client is registered, and deletes nothing twice', async () => {
    as.script.push(new ProvisioningCallError('the authorization server is unreachable (TypeError)', false));
    const id = await approved();
    await h.provisioning!.worker.runDue();
    // Deprecate while the registration step still waits for its retry: the delete waits for it.
    await h.internal
      .post(`/internal/v1/organizations/${org.id}/registrations/${id}/actions/deprecate`)
      .set('Authorization', `Bearer ${adam}`)
      .send({});
    await h.provisioning!.worker.runDue();
    expect(as.calls).to.deep.equal(['register']);
    expect((await show(id)).body.provisioning.status).to.equal('pending');
    h.advance(60_000);
    await h.provisioning!.worker.runDue();
    h.advance(60_000);
    await h.provisioning!.worker.runDue();
    expect(as.calls).to.deep.equal(['register', 'register', 'remove']);
    const shown = await show(id);
    expect(shown.body.provisioning).to.include({ status: 'done', deleted: true });
    // Enqueuing the same decision again is one step, and a deleted client is not deleted again.
    await h.deps.provisioning!.enqueue({
      kind: 'delete',
      organizationId: org.id,
      registrationId: id,
      revision: shown.body.provisioning.steps[1].revision,
    });
    await h.provisioning!.worker.runDue();
    expect(as.calls).to.deep.equal(['register', 'register', 'remove']);
  });
});

describe('the public registration shows its provisioning state', () => {
  it('pending, then done, to the requester on GET /registrations/{id}', async () => {
    const as = scriptedServer();
    const h = await startInternal({
      env: {
        PROVISIONING_REGISTRATION_ENDPOINT: 'https://as.example/register',
        PROVISIONING_INITIAL_ACCESS_TOKEN: 'iat',
        PROVISIONING_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        LOG_LEVEL: 'silent',
      },
      provisioning: { wrapClient: () => as.client },
    });
    try {
      const org = await h.organization();
      const id = await h.submitted(org);
      const url = `/api/v1/organizations/${org.id}/registrations/${id}`;
      const alice = await h.requesterToken();
      expect((await h.public.get(url).set('Authorization', `Bearer ${alice}`)).body).not.to.have.property(
        'provisioning',
      );
      as.script.push(new ProvisioningCallError('the authorization server is unreachable (TypeError)', false));
      const rita = await h.staffToken('rita', 'gatehouse:review');
      await h.internal
        .post(`/internal/v1/organizations/${org.id}/registrations/${id}/actions/approve`)
        .set('Authorization', `Bearer ${rita}`)
        .send({});
      await h.provisioning!.worker.runDue();
      const pending = await h.public.get(url).set('Authorization', `Bearer ${alice}`);
      expectConforms(pending);
      expect(pending.body.provisioning).to.deep.equal({ status: 'pending' });
      expect(pending.body).not.to.have.property('clientId');
      h.advance(60_000);
      await h.provisioning!.worker.runDue();
      const done = await h.public.get(url).set('Authorization', `Bearer ${alice}`);
      expectConforms(done);
      expect(done.body.provisioning).to.deep.equal({ status: 'done' });
      expect(done.body.clientId).to.equal('as-client-1');
    } finally {
      await h.close();
    }
  });
});
