/**
 * Webhooks on the public API, delivered to a real receiver on loopback: created by an owner with the signing secret
 * shown once, events signed per Standard Webhooks (checked with the `standardwebhooks` verifier), a receiver that is
 * down or failing gets the event later with the same `webhook-id`, deliveries are listed and redelivered.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { Webhook as Verifier } from 'standardwebhooks';
import type { Organization } from '../../../../server/components/organizations/organizations.model.js';
import {
  createWebhookDispatcher,
  type WebhookDispatcher,
} from '../../../../server/components/webhooks/webhook-dispatcher.js';
import { startInternal, type InternalHarness } from '../../internal/support/internal-harness.js';
import { startReceiver, type Received, type WebhookReceiver } from './webhook-receiver.js';

const SCOPES = 'registrations:read registrations:write webhooks:read webhooks:write';
/** Signing secrets are kept sealed with the provisioning key (on MongoDB a webhook cannot be created without one). */
const KEY = { PROVISIONING_ENCRYPTION_KEY: randomBytes(32).toString('base64') };

describe('webhooks on the public API', () => {
  let h: InternalHarness;
  let receiver: WebhookReceiver;
  let dispatcher: WebhookDispatcher;
  let org: Organization;
  let owner: string;
  let rita: string;

  beforeEach(async () => {
    h = await startInternal({
      env: { ...KEY, WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOKS_RETRY_BASE_MS: '1000', LOG_LEVEL: 'silent' },
    });
    receiver = await startReceiver();
    dispatcher = createWebhookDispatcher(h.deps);
    org = await h.organization();
    owner = await h.service.token({ sub: 'alice', scope: SCOPES });
    rita = await h.staffToken('rita', 'gatehouse:review');
  });
  afterEach(async () => {
    await dispatcher.stop();
    await receiver.close();
    await h.close();
  });

  const base = () => `/api/v1/organizations/${org.id}/webhooks`;

  async function created(events: string[], token = owner) {
    const res = await h.public
      .post(base())
      .set('Authorization', `Bearer ${token}`)
      .send({ url: receiver.url, events, description: 'ops channel' });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res;
  }

  async function approve(id: string) {
    const res = await h.internal
      .post(`/internal/v1/organizations/${org.id}/registrations/${id}/actions/approve`)
      .set('Authorization', `Bearer ${rita}`)
      .send({});
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  }

  const verified = (secret: string, message: Received) =>
    new Verifier(secret).verify(message.body, message.headers as Record<string, string>) as {
      type: string;
      timestamp: string;
      data: { organizationId: string; actor: string; registration: { id: string; status: string } };
    };

  async function deliveries(webhookId: string) {
    const res = await h.public.get(`${base()}/${webhookId}/deliveries`).set('Authorization', `Bearer ${owner}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.data as {
      id: string;
      messageId: string;
      type: string;
      status: string;
      attempts: { statusCode?: number; error?: string }[];
    }[];
  }

  it('shows the signing secret once, at creation, and never again', async () => {
    const res = await created(['registration.approved']);
    expect(res.body.secret).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(res.headers['cache-control']).to.equal('no-store');
    const read = await h.public.get(`${base()}/${res.body.id}`).set('Authorization', `Bearer ${owner}`);
    expect(read.status).to.equal(200);
    expect(read.body).to.deep.include({ url: receiver.url, events: ['registration.approved'], revision: 1 });
    expect(read.body).not.to.have.property('secret');
    expect(JSON.stringify(read.body)).not.to.include(res.body.secret.slice(6));
    const list = await h.public.get(base()).set('Authorization', `Bearer ${owner}`);
    expect(list.body.data.map((w: { id: string }) => w.id)).to.deep.equal([res.body.id]);
    expect(list.body.data[0]).not.to.have.property('secret');
  });

  it('lists the webhooks oldest first, a page at a time, by the cursor of the page before', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) ids.push((await created(['registration.approved'])).body.id as string);
    const first = await h.public.get(`${base()}?limit=2`).set('Authorization', `Bearer ${owner}`);
    expect(first.status).to.equal(200);
    expect(first.body.data.map((w: { id: string }) => w.id)).to.deep.equal(ids.slice(0, 2));
    expect(first.body.nextCursor).to.be.a('string');
    const second = await h.public
      .get(`${base()}?limit=2&cursor=${encodeURIComponent(first.body.nextCursor as string)}`)
      .set('Authorization', `Bearer ${owner}`);
    expect(second.body.data.map((w: { id: string }) => w.id)).to.deep.equal(ids.slice(2));
    expect(second.body.nextCursor).to.equal(null);
  });

  it('delivers registration.submitted and registration.approved, signed per Standard Webhooks', async () => {
    const { body: hook } = await created(['registration.submitted', 'registration.approved']);
    const id = await h.submitted(org, 'alice');
    await approve(id);
    await dispatcher.runDue();

    expect(receiver.received).to.have.length(2);
    // Attempts run concurrently: the receiver may get them in either order (Standard Webhooks promises none).
    const messages = receiver.received.map((message) => verified(hook.secret, message));
    const submitted = messages.find((m) => m.type === 'registration.submitted')!;
    const approved = messages.find((m) => m.type === 'registration.approved')!;
    expect(submitted).to.deep.include({ type: 'registration.submitted' });
    expect(submitted.data).to.deep.include({ organizationId: org.id, actor: 'alice' });
    expect(submitted.data.registration).to.include({ id, status: 'pending_review' });
    expect(approved.type).to.equal('registration.approved');
    expect(approved.data).to.deep.include({ actor: 'rita' });
    expect(approved.data.registration).to.include({ id, status: 'active' });
    expect(approved.data.registration).not.to.have.property('actions');
    // A body changed in transit, or signed with another secret, is refused by the verifier.
    const sent = receiver.received.find((m) => m.body.includes('"registration.approved"'))!;
    const tampered = { ...sent, body: sent.body.replace('"active"', '"suspended"') };
    expect(() => verified(hook.secret, tampered)).to.throw(/signature/i);
    const other = (await created(['registration.approved'])).body.secret as string;
    expect(() => verified(other, sent)).to.throw(/signature/i);

    const listed = await deliveries(hook.id);
    expect(listed.map((d) => [d.type, d.status, d.attempts[0].statusCode])).to.deep.equal([
      ['registration.submitted', 'succeeded', 204],
      ['registration.approved', 'succeeded', 204],
    ]);
    expect(listed[1].messageId).to.equal(sent.headers['webhook-id']);
  });

  it('delivers the change-set events and a withdrawal and deletion, each with its actor', async () => {
    const { body: hook } = await created([
      'registration.withdrawn',
      'registration.deleted',
      'change_set.submitted',
      'change_set.withdrawn',
    ]);
    const auth = `Bearer ${owner}`;
    const registrations = `/api/v1/organizations/${org.id}/registrations`;
    const active = await h.submitted(org, 'alice');
    await approve(active);
    const proposed = await h.public
      .post(`${registrations}/${active}/change-sets`)
      .set(
        'Authorization',
        `Bearer ${await h.service.token({ sub: 'alice', scope: 'change_sets:write registrations:read' })}`,
      )
      .send({ changes: { redirectUris: ['https://app.example.com/callback', 'https://app.example.com/other'] } });
    expect(proposed.status, JSON.stringify(proposed.body)).to.equal(201);
    const withdrawnSet = await h.public
      .post(`${registrations}/${active}/change-sets/${proposed.body.id}/actions/withdraw`)
      .set(
        'Authorization',
        `Bearer ${await h.service.token({ sub: 'alice', scope: 'change_sets:write registrations:read' })}`,
      )
      .send({});
    expect(withdrawnSet.status, JSON.stringify(withdrawnSet.body)).to.equal(200);
    const other = await h.submitted(org, 'alice');
    const withdrawn = await h.public
      .post(`${registrations}/${other}/actions/withdraw`)
      .set('Authorization', auth)
      .send({});
    expect(withdrawn.status, JSON.stringify(withdrawn.body)).to.equal(200);
    const deleted = await h.public.delete(`${registrations}/${other}`).set('Authorization', auth);
    expect(deleted.status, JSON.stringify(deleted.body)).to.equal(204);
    await dispatcher.runDue();

    const events = receiver.received.map(
      (message) =>
        verified(hook.secret, message) as unknown as {
          type: string;
          data: {
            actor: string;
            registration?: { id: string; status: string };
            changeSet?: { id: string; status: string };
          };
        },
    );
    const summary = events.map((e) => [e.type, e.data.registration?.id ?? e.data.changeSet?.id, e.data.actor]);
    expect(summary).to.have.deep.members([
      ['change_set.submitted', proposed.body.id, 'alice'],
      ['change_set.withdrawn', proposed.body.id, 'alice'],
      ['registration.withdrawn', other, 'alice'],
      ['registration.deleted', other, 'alice'],
    ]);
    const withdrawnEvent = events.find((e) => e.type === 'change_set.withdrawn')!;
    expect(withdrawnEvent.data.changeSet?.status).to.equal('withdrawn');
    expect(events.find((e) => e.type === 'registration.withdrawn')!.data.registration?.status).to.equal('draft');
  });

  it('sends only the event types a webhook subscribed to', async () => {
    await created(['registration.approved']);
    const id = await h.submitted(org, 'alice');
    await dispatcher.runDue();
    expect(receiver.received).to.deep.equal([]);
    await approve(id);
    await dispatcher.runDue();
    expect(receiver.received.map((m) => JSON.parse(m.body).type)).to.deep.equal(['registration.approved']);
  });

  it('delivers an approval made while the receiver was down once it is back, once per webhook-id', async () => {
    const { body: hook } = await created(['registration.approved']);
    const id = await h.submitted(org, 'alice');
    await receiver.down();
    await approve(id);
    await dispatcher.runDue();
    const failed = await deliveries(hook.id);
    expect(failed).to.have.length(1);
    expect(failed[0].status).to.equal('pending');
    expect(failed[0].attempts).to.have.length(1);
    expect(failed[0].attempts[0]).not.to.have.property('statusCode');
    expect(failed[0].attempts[0].error).to.equal('ECONNREFUSED');

    await receiver.up();
    await dispatcher.runDue();
    expect(receiver.received, 'not before the backoff').to.have.length(0);
    h.advance(1500);
    await dispatcher.runDue();
    await dispatcher.runDue();
    expect(receiver.received).to.have.length(1);
    expect(receiver.received[0].headers['webhook-id']).to.equal(failed[0].messageId);
    expect(verified(hook.secret, receiver.received[0]).data.registration.id).to.equal(id);
    const after = await deliveries(hook.id);
    expect(after[0].status).to.equal('succeeded');
    expect(after[0].attempts.map((a) => a.statusCode ?? a.error)).to.deep.equal(['ECONNREFUSED', 204]);
  });

  it('retries an answer outside 2xx after the backoff, with the same webhook-id, and redelivers on request', async () => {
    const { body: hook } = await created(['registration.submitted']);
    receiver.answer = 503;
    await h.submitted(org, 'alice');
    await dispatcher.runDue();
    receiver.answer = 200;
    await dispatcher.runDue();
    expect(receiver.received, 'not before the backoff').to.have.length(1);
    h.advance(1500);
    await dispatcher.runDue();
    const ids = receiver.received.map((m) => m.headers['webhook-id']);
    expect(ids).to.have.length(2);
    expect(ids[1]).to.equal(ids[0]);
    const [delivery] = await deliveries(hook.id);
    expect(delivery.attempts.map((a) => a.statusCode)).to.deep.equal([503, 200]);

    const again = await h.public
      .post(`${base()}/${hook.id}/deliveries/${delivery.id}/actions/redeliver`)
      .set('Authorization', `Bearer ${owner}`)
      .send({});
    expect(again.status, JSON.stringify(again.body)).to.equal(200);
    expect(again.body.status).to.equal('pending');
    await dispatcher.runDue();
    expect(receiver.received.map((m) => m.headers['webhook-id'])).to.deep.equal([ids[0], ids[0], ids[0]]);
    expect(verified(hook.secret, receiver.received[2]).type).to.equal('registration.submitted');
  });

  it('stops delivering to a deleted webhook, and edits keep the secret', async () => {
    const { body: hook } = await created(['registration.submitted']);
    const edited = await h.public
      .patch(`${base()}/${hook.id}`)
      .set('Authorization', `Bearer ${owner}`)
      .set('If-Match', '"1"')
      .send({ events: ['registration.submitted', 'registration.approved'] });
    expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
    expect(edited.body.revision).to.equal(2);
    const id = await h.submitted(org, 'alice');
    await dispatcher.runDue();
    expect(verified(hook.secret, receiver.received[0]).type).to.equal('registration.submitted');

    const deleted = await h.public.delete(`${base()}/${hook.id}`).set('Authorization', `Bearer ${owner}`);
    expect(deleted.status).to.equal(204);
    await approve(id);
    await dispatcher.runDue();
    expect(receiver.received).to.have.length(1);
    const gone = await h.public.get(`${base()}/${hook.id}`).set('Authorization', `Bearer ${owner}`);
    expect(gone.status).to.equal(404);
    expect(gone.body.error.code).to.equal('not_found');
  });

  it('fails a delivery at once, saying why, when the signing secret was sealed with another key', async () => {
    const webhookId = 'whk_AAAAAAAAAAAAAAAAAAAAAA';
    const now = new Date();
    await h.deps.store.webhooks.create(
      {
        id: webhookId,
        organizationId: org.id,
        url: receiver.url,
        events: ['registration.submitted'],
        description: '',
        secretSealed: 'sealed-with-a-key-this-service-no-longer-has',
        revision: 1,
        createdAt: now,
        updatedAt: now,
        createdBy: 'alice',
      },
      20,
    );
    await h.submitted(org, 'alice');
    await dispatcher.runDue();
    expect(receiver.received).to.deep.equal([]);
    const [delivery] = await deliveries(webhookId);
    expect(delivery.status).to.equal('failed');
    expect(delivery.attempts.map((a) => a.error)).to.deep.equal([
      'the signing secret cannot be unsealed with the current key',
    ]);
  });

  it('lets viewers and developers read webhooks but only owners change them (403 with the envelope)', async () => {
    const { body: hook } = await created(['registration.approved']);
    for (const [subject, role] of [
      ['vera', 'viewer'],
      ['dev', 'developer'],
    ] as const) {
      await h.deps.store.grants.grant({ organizationId: org.id, subject, isDefault: false, role });
      const token = await h.service.token({ sub: subject, scope: SCOPES });
      const read = await h.public.get(`${base()}/${hook.id}`).set('Authorization', `Bearer ${token}`);
      expect(read.status, role).to.equal(200);
      const create = await h.public
        .post(base())
        .set('Authorization', `Bearer ${token}`)
        .send({ url: receiver.url, events: ['registration.approved'] });
      expect(create.status, role).to.equal(403);
      expect(create.body.error.code, role).to.equal('forbidden');
      const remove = await h.public.delete(`${base()}/${hook.id}`).set('Authorization', `Bearer ${token}`);
      expect(remove.status, role).to.equal(403);
    }
  });

  it('refuses a token without the webhooks scopes', async () => {
    const token = await h.service.token({ sub: 'alice', scope: 'registrations:read registrations:write' });
    const res = await h.public.get(base()).set('Authorization', `Bearer ${token}`);
    expect(res.status).to.equal(403);
    expect(res.body.error.code).to.equal('insufficient_scope');
  });
});

describe('webhook targets without WEBHOOKS_ALLOW_PRIVATE_TARGETS', () => {
  let h: InternalHarness;
  let owner: string;
  let org: Organization;
  before(async () => {
    h = await startInternal({ env: { ...KEY, LOG_LEVEL: 'silent' } });
    org = await h.organization();
    owner = await h.service.token({ sub: 'alice', scope: SCOPES });
  });
  after(() => h.close());

  for (const [url, why] of [
    ['http://hooks.example.com/in', /must be https/],
    ['https://127.0.0.1/in', /127\.0\.0\.1, which is not a public address/],
    ['https://[::1]/in', /::1, which is not a public address/],
    ['https://10.1.2.3/in', /not a public address/],
    ['https://169.254.169.254/latest/meta-data', /not a public address/],
    ['https://localhost:8443/in', /not a public address/],
    ['https://user:pw@hooks.example.com/in', /credentials/],
  ] as const)
    it(`refuses ${url} with 422`, async () => {
      const res = await h.public
        .post(`/api/v1/organizations/${org.id}/webhooks`)
        .set('Authorization', `Bearer ${owner}`)
        .send({ url, events: ['registration.approved'] });
      expect(res.status, JSON.stringify(res.body)).to.equal(422);
      expect(res.body.error.code).to.equal('validation_failed');
      expect(res.body.error.message).to.match(why);
    });
});
