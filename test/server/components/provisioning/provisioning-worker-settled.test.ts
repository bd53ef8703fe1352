/**
 * A step done at the authorization server whose end cannot be told (the webhook event hook throws, e.g. the webhooks
 * list read timed out): not a failure of the step. It runs again to tell its end (never not at all) and ends done —
 * not failed, not audited or announced as failed — even on what was its last attempt.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { createProvisioningWorker } from '../../../../server/components/provisioning/provisioning-worker.js';
import type { RegistrationClient } from '../../../../server/components/provisioning/registration-client.js';
import { createTokenCipher } from '../../../../server/components/provisioning/token-cipher.js';
import { provisioningEvents } from '../../../../server/components/webhooks/provisioning-events.js';
import { createMemoryStore } from '../../../../server/store/memory-store.js';
import { aRegistration, aWebhook } from '../../contract/fixtures.js';

describe('provisioning worker: a done step whose end cannot be told', () => {
  it('runs again to tell it and ends done, never failed, even on its last attempt', async () => {
    const store = createMemoryStore();
    const registration = aRegistration({ status: 'active' });
    await store.registrations.create(registration);
    await store.webhooks.create(
      aWebhook({
        organizationId: registration.organizationId,
        events: ['provisioning.succeeded', 'provisioning.failed'],
      }),
      20,
    );
    let now = new Date('2030-01-01T00:00:00Z');
    const clock = () => new Date((now = new Date(now.getTime() + 1)));
    const calls: string[] = [];
    const client: RegistrationClient = {
      async register() {
        calls.push('register');
        return {
          clientId: 'as-client-1',
          registrationClientUri: 'https://as.example/register/as-client-1',
          registrationAccessToken: 'rat-1',
        };
      },
      async update() {
        calls.push('update');
        return {};
      },
      async remove() {
        calls.push('remove');
      },
    };
    const tell = provisioningEvents({ store });
    const told: string[] = [];
    let failures = 1;
    const worker = createProvisioningWorker({
      store,
      clock,
      client,
      cipher: createTokenCipher(randomBytes(32).toString('base64')),
      retryS: 1,
      // The first attempt is the last: a hook failure counted as the step's would settle it failed at once.
      maxAttempts: 1,
      async onSettled(settled) {
        told.push(settled.outcome);
        if (failures-- > 0) throw new Error('the webhooks list read timed out');
        await tell(settled);
      },
    });
    await store.provisioning.enqueue({
      organizationId: registration.organizationId,
      registrationId: registration.id,
      kind: 'register',
      revision: registration.revision,
      now: clock(),
    });

    expect(await worker.runDue()).to.equal(1);
    const [afterFirst] = await store.provisioning.listSteps(registration.organizationId, registration.id);
    expect(afterFirst.status, 'not failed: it runs again to tell its end').to.equal('pending');
    expect((await store.registrations.get(registration.organizationId, registration.id))?.clientId).to.equal(
      'as-client-1',
    );

    now = new Date(now.getTime() + 60_000);
    expect(await worker.runDue()).to.equal(1);
    const [step] = await store.provisioning.listSteps(registration.organizationId, registration.id);
    expect(step.status).to.equal('done');
    expect(calls, 'registered once: the second run finds the client').to.deep.equal(['register']);
    expect(told).to.deep.equal(['done', 'done']);

    const events = await store.webhookDeliveries.pendingEvents(10);
    expect(events.map((e) => e.type)).to.deep.equal(['provisioning.succeeded']);
    const audit = await store.audit.list({ registrationId: registration.id, limit: 20 });
    const actions = audit.map((e) => e.action);
    expect(actions).to.include('provisioning_register_done');
    expect(actions).to.not.include('provisioning_register_failed');
  });
});
