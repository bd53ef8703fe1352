/**
 * The webhook events of client secrets and provisioning: a rotation at our IdP reaches a subscribed receiver as
 * `secret.rotated` (never carrying the secret), and a provisioning step's end is one `provisioning.succeeded` or
 * `provisioning.failed` event however often it is told (a crash between telling and marking the step tells again).
 */
import { expect } from 'chai';
import { Webhook as Verifier } from 'standardwebhooks';
import type { Organization } from '../../../../server/components/organizations/organizations.model.js';
import { createWebhookDispatcher } from '../../../../server/components/webhooks/webhook-dispatcher.js';
import { provisioningEvents } from '../../../../server/components/webhooks/provisioning-events.js';
import { createMemoryStore } from '../../../../server/store/memory-store.js';
import type { OutboxStep } from '../../../../server/components/provisioning/provisioning.model.js';
import { startSecretHarness, type SecretHarness } from '../secrets/secret-harness.js';
import { startReceiver, type WebhookReceiver } from './webhook-receiver.js';
import { aRegistration, aWebhook } from '../../contract/fixtures.js';

describe('secret.rotated at a subscribed receiver (our IdP as the authorization server)', function () {
  this.timeout(30_000);
  let s: SecretHarness;
  let receiver: WebhookReceiver;
  let org: Organization;
  before(async () => {
    s = await startSecretHarness({ env: { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true' } });
    receiver = await startReceiver();
    org = await s.h.organization({ plan: 'pro' });
  });
  after(async () => {
    await receiver?.close();
    await s?.close();
  });

  it('tells the rotation, with the registration as the API shows it and no secret in it', async () => {
    const owner = `Bearer ${await s.h.service.token({ sub: 'alice', scope: 'registrations:read registrations:write webhooks:write' })}`;
    const hook = await s.h.public
      .post(`/api/v1/organizations/${org.id}/webhooks`)
      .set('Authorization', owner)
      .send({ url: receiver.url, events: ['secret.rotated'] });
    expect(hook.status, JSON.stringify(hook.body)).to.equal(201);
    const { id } = await s.approvedClient(org);
    const rotated = await s.h.public
      .post(`/api/v1/organizations/${org.id}/registrations/${id}/actions/rotate-secret`)
      .set('Authorization', owner)
      .send({ graceSeconds: 60 });
    expect(rotated.status, JSON.stringify(rotated.body)).to.equal(200);

    await createWebhookDispatcher(s.h.deps).runDue();
    expect(receiver.received).to.have.length(1);
    const event = new Verifier(hook.body.secret as string).verify(
      receiver.received[0].body,
      receiver.received[0].headers as Record<string, string>,
    ) as { type: string; data: { actor: string; registration: { id: string; clientSecret: object } } };
    expect(event.type).to.equal('secret.rotated');
    expect(event.data.actor).to.equal('alice');
    expect(event.data.registration.id).to.equal(id);
    expect(event.data.registration.clientSecret).to.include({
      previousExpiresAt: rotated.body.registration.clientSecret.previousExpiresAt,
    });
    expect(receiver.received[0].body).not.to.include(rotated.body.clientSecret);
  });
});

describe('provisioning events', () => {
  it('are one event per step outcome however often the end is told, and none for a gone registration', async () => {
    const store = createMemoryStore();
    const registration = aRegistration({ status: 'active', clientId: 'client_1' });
    await store.registrations.create(registration);
    await store.webhooks.create(
      aWebhook({
        organizationId: registration.organizationId,
        events: ['provisioning.succeeded', 'provisioning.failed'],
      }),
      20,
    );
    const step = {
      id: `${registration.id}:register:2`,
      organizationId: registration.organizationId,
      registrationId: registration.id,
      kind: 'register',
      attempts: 1,
    } as OutboxStep;
    const tell = provisioningEvents({ store });
    const at = new Date();
    await tell({ step, registration, outcome: 'done', at });
    await tell({ step, registration, outcome: 'done', at });
    await tell({ step, registration, outcome: 'failed', error: 'invalid_client_metadata', at });
    await tell({ step: { ...step, registrationId: 'reg_gone' }, registration: null, outcome: 'done', at });

    const events = await store.webhookDeliveries.pendingEvents(10);
    expect(events.map((e) => e.type).sort()).to.deep.equal(['provisioning.failed', 'provisioning.succeeded']);
    const failed = events.find((e) => e.type === 'provisioning.failed')!;
    expect(failed.data).to.deep.include({
      actor: 'system:provisioning',
      provisioning: { step: 'register', attempts: 1, error: 'invalid_client_metadata' },
    });
    expect((failed.data.registration as { clientId: string }).clientId).to.equal('client_1');
  });
});
