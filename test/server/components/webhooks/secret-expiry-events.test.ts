/**
 * The events of a client secret's lifetime: with a policy profile giving secrets 10 days, the secret our IdP
 * issued is announced `secret.expiring` 7 days and 1 day before it expires and `secret.expired` when it does, as the
 * service's clock passes those times; a rotation makes the old secret's notices stale (none of them is sent).
 */
import { expect } from 'chai';
import type { Organization } from '../../../../server/components/organizations/organizations.model.js';
import { declarePolicyProfiles } from '../../../../server/components/policy-profiles/declared-policy-profiles.js';
import {
  createWebhookDispatcher,
  type WebhookDispatcher,
} from '../../../../server/components/webhooks/webhook-dispatcher.js';
import { applySeed } from '../../../../server/seed/apply-seed.js';
import { parseSeed } from '../../../../server/seed/read-seed-file.js';
import { SERVICE_CLIENT, startSecretHarness, type SecretHarness } from '../secrets/secret-harness.js';
import { startReceiver, type WebhookReceiver } from './webhook-receiver.js';

const DAY_MS = 24 * 60 * 60 * 1000;

describe("the events of a client secret's lifetime", function () {
  this.timeout(60_000);
  let s: SecretHarness;
  let receiver: WebhookReceiver;
  let dispatcher: WebhookDispatcher;
  let org: Organization;
  let owner: string;

  beforeEach(async () => {
    s = await startSecretHarness({ env: { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true' } });
    await applySeed(
      s.h.deps.store,
      parseSeed(
        '{ "policyProfiles": [{ "id": "pp_ten_days", "name": "Ten-day secrets", "basedOn": "pp_service", "constraints": { "maxSecretLifetimeDays": 10 } }] }',
        'seed.json',
      ),
      new Date(),
    );
    receiver = await startReceiver();
    dispatcher = createWebhookDispatcher(s.h.deps);
    // The dispatcher's first look: notices come due from here on.
    await dispatcher.runDue();
    org = await s.h.organization({ plan: 'pro' });
    owner = `Bearer ${await s.h.service.token({ sub: 'alice', scope: 'registrations:read registrations:write webhooks:write' })}`;
    const hook = await s.h.public
      .post(`/api/v1/organizations/${org.id}/webhooks`)
      .set('Authorization', owner)
      .send({ url: receiver.url, events: ['secret.expiring', 'secret.expired'] });
    expect(hook.status, JSON.stringify(hook.body)).to.equal(201);
  });
  afterEach(async () => {
    declarePolicyProfiles([]);
    await dispatcher?.stop();
    await receiver?.close();
    await s?.close();
  });

  /** Makes the first write of notices fail (the database went away); the count of writes tried, for the test. */
  function failFirstNoticeWrite(): () => number {
    const notices = s.h.deps.store.secretNotices;
    const schedule = notices.schedule.bind(notices);
    let writes = 0;
    notices.schedule = async (batch) => {
      if (batch.length > 0 && (writes += 1) === 1) throw new Error('the database went away');
      return schedule(batch);
    };
    return () => writes;
  }

  /** Moves the service's clock to `days` after the start and lets the dispatcher catch up. */
  let moved = 0;
  async function dayAfter(days: number): Promise<{ type: string; registration: string; actor: string }[]> {
    s.h.advance(days * DAY_MS + 11 * 60_000 - moved);
    moved = days * DAY_MS + 11 * 60_000;
    // A run handles a day of buckets at most.
    for (let i = 0; i < days + 2; i += 1) await dispatcher.runDue();
    return receiver.received.map((m) => {
      const body = JSON.parse(m.body) as { type: string; data: { actor: string; registration: { id: string } } };
      return { type: body.type, registration: body.data.registration.id, actor: body.data.actor };
    });
  }

  it('announces expiring 7 days and 1 day before, and expired at the end', async () => {
    moved = 0;
    const { id } = await s.approvedClient(org, { ...SERVICE_CLIENT, policyProfileId: 'pp_ten_days' });
    const expiring = { type: 'secret.expiring', registration: id, actor: 'system:secrets' };
    expect(await dayAfter(2)).to.deep.equal([]);
    expect(await dayAfter(3)).to.deep.equal([expiring]);
    expect(await dayAfter(9)).to.deep.equal([expiring, expiring]);
    expect(await dayAfter(10)).to.deep.equal([expiring, expiring, { ...expiring, type: 'secret.expired' }]);
  });

  it('loses no notice when writing them fails at the hand-over: the step is tried again, and they come in time', async () => {
    moved = 0;
    const writes = failFirstNoticeWrite();
    const id = await s.h.submitted(org, 'alice', { ...SERVICE_CLIENT, policyProfileId: 'pp_ten_days' });
    const rita = await s.h.staffToken('rita', 'gatehouse:review');
    const approved = await s.h.internal
      .post(`/internal/v1/organizations/${org.id}/registrations/${id}/actions/approve`)
      .set('Authorization', `Bearer ${rita}`)
      .send({});
    expect(approved.status, JSON.stringify(approved.body)).to.equal(200);
    await s.h.provisioning!.worker.runDue();
    expect(writes(), 'the notices were written once, and failed').to.equal(1);
    s.h.advance(2_000); // past the step's retry time (PROVISIONING_RETRY_S=1)
    await s.h.provisioning!.worker.runDue();
    expect((await s.h.deps.store.registrations.get(org.id, id))?.secret, 'handed over on the retry').to.not.equal(
      undefined,
    );

    const expiring = { type: 'secret.expiring', registration: id, actor: 'system:secrets' };
    expect(await dayAfter(3)).to.deep.equal([expiring]);
    expect(await dayAfter(10)).to.deep.equal([expiring, expiring, { ...expiring, type: 'secret.expired' }]);
  });

  it("sends none of a rotated secret's notices, and the new secret's in their time", async () => {
    moved = 0;
    const { id } = await s.approvedClient(org, { ...SERVICE_CLIENT, policyProfileId: 'pp_ten_days' });
    expect(await dayAfter(2)).to.deep.equal([]);
    const rotated = await s.h.public
      .post(`/api/v1/organizations/${org.id}/registrations/${id}/actions/rotate-secret`)
      .set('Authorization', owner)
      .send({ graceSeconds: 0 });
    expect(rotated.status, JSON.stringify(rotated.body)).to.equal(200);
    // The first secret's 7-day notice was due at day 3: the rotation made it stale.
    expect(await dayAfter(4)).to.deep.equal([]);
    const events = await dayAfter(6);
    expect(events.map((e) => e.type)).to.deep.equal(['secret.expiring']);
  });

  it('stores a rotation whose notices cannot be written first, and writes them after it', async () => {
    moved = 0;
    const { id } = await s.approvedClient(org, { ...SERVICE_CLIENT, policyProfileId: 'pp_ten_days' });
    expect(await dayAfter(2)).to.deep.equal([]);
    const writes = failFirstNoticeWrite();
    const rotated = await s.h.public
      .post(`/api/v1/organizations/${org.id}/registrations/${id}/actions/rotate-secret`)
      .set('Authorization', owner)
      .send({ graceSeconds: 0 });
    expect(rotated.status, JSON.stringify(rotated.body)).to.equal(200);
    expect(writes(), 'the first write of the notices failed, the second after the rotation landed').to.equal(2);
    // The new secret lives ten days from day 2: its first notice is due at day 5.
    expect(await dayAfter(4)).to.deep.equal([]);
    expect((await dayAfter(6)).map((e) => e.type)).to.deep.equal(['secret.expiring']);
  });
});
