/**
 * The webhook repositories' contract: subscriptions (per organization, bounded, conditional edits) and deliveries
 * (an idempotent inbox of events, delivery logs claimed with a lease, attempts recorded, redelivery).
 */
import { expect } from 'chai';
import type { Store } from '../../../server/deps.js';
import type { WebhookRepository } from '../../../server/components/webhooks/webhooks.repository.js';
import type { WebhookDeliveryRepository } from '../../../server/components/webhooks/webhook-deliveries.repository.js';
import type { Delivery, Webhook, WebhookEvent } from '../../../server/components/webhooks/webhooks.model.js';
import { at, aWebhook, ORG_A, ORG_B } from './fixtures.js';

const HOOK_A = 'whk_AAAAAAAAAAAAAAAAAAAAAA';
const HOOK_B = 'whk_BBBBBBBBBBBBBBBBBBBBBB';

/** A webhook created `s` seconds after T0. */
function hookAt(id: string, s: number, organizationId = ORG_A): Webhook {
  return aWebhook({ id, organizationId, createdAt: at(s), updatedAt: at(s) });
}

function anEvent(id: string, s: number): WebhookEvent {
  return {
    id,
    type: 'registration.approved',
    organizationId: ORG_A,
    timestamp: at(s),
    data: { organizationId: ORG_A, actor: 'rita', registration: { id: 'reg_A', name: 'App' } },
  };
}

function aDelivery(id: string, s: number, webhookId = HOOK_A, organizationId = ORG_A): Delivery {
  return {
    id,
    webhookId,
    organizationId,
    messageId: `msg_${id}`,
    type: 'registration.approved',
    body: '{"type":"registration.approved"}',
    status: 'pending',
    attempts: [],
    nextAttemptAt: at(s),
    since: at(s),
    createdAt: at(s),
  };
}

export function webhooksContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`webhook repository: ${name}`, () => {
    let repo: WebhookRepository;
    let close: () => Promise<void>;
    beforeEach(async () => {
      const store = await makeStore();
      repo = store.webhooks;
      close = () => store.close();
    });
    afterEach(() => close());

    it("lists an organization's webhooks oldest first, never another organization's", async () => {
      expect(await repo.create(hookAt(HOOK_B, 2), 20)).to.equal('created');
      expect(await repo.create(hookAt(HOOK_A, 1), 20)).to.equal('created');
      await repo.create(hookAt('whk_CCCCCCCCCCCCCCCCCCCCCC', 3, ORG_B), 20);
      expect((await repo.list(ORG_A)).map((w) => w.id)).to.deep.equal([HOOK_A, HOOK_B]);
      expect(await repo.get(ORG_A, HOOK_A)).to.deep.equal(hookAt(HOOK_A, 1));
      expect(await repo.get(ORG_B, HOOK_A)).to.equal(null);
    });

    it('refuses a webhook past the limit', async () => {
      await repo.create(hookAt(HOOK_A, 1), 1);
      expect(await repo.create(hookAt(HOOK_B, 2), 1)).to.equal('limit_reached');
      expect(await repo.list(ORG_A)).to.have.length(1);
    });

    it('edits at the given revision only, and deletes', async () => {
      await repo.create(hookAt(HOOK_A, 1), 20);
      const stale = await repo.update(ORG_A, HOOK_A, { description: 'x' }, at(5), [7]);
      expect(stale).to.include({ ok: false, reason: 'stale_revision' });
      const edited = await repo.update(ORG_A, HOOK_A, { events: ['registration.submitted'] }, at(5), [1]);
      expect(edited.ok && edited.webhook).to.include({ revision: 2 });
      expect(await repo.get(ORG_A, HOOK_A)).to.deep.include({ events: ['registration.submitted'], updatedAt: at(5) });
      expect(await repo.delete(ORG_B, HOOK_A)).to.include({ ok: false, reason: 'not_found' });
      expect(await repo.delete(ORG_A, HOOK_A)).to.include({ ok: true });
      expect(await repo.list(ORG_A)).to.deep.equal([]);
    });
  });

  describe(`webhook delivery repository: ${name}`, () => {
    let repo: WebhookDeliveryRepository;
    let close: () => Promise<void>;
    beforeEach(async () => {
      const store = await makeStore();
      repo = store.webhookDeliveries;
      close = () => store.close();
    });
    afterEach(() => close());

    it('keeps an event once however often it is enqueued, oldest first, until removed', async () => {
      await repo.enqueueEvent(anEvent('msg_B', 2));
      await repo.enqueueEvent(anEvent('msg_A', 1));
      await repo.enqueueEvent(anEvent('msg_A', 1));
      expect(await repo.pendingEvents(10)).to.deep.equal([anEvent('msg_A', 1), anEvent('msg_B', 2)]);
      await repo.removeEvent('msg_A');
      expect((await repo.pendingEvents(10)).map((e) => e.id)).to.deep.equal(['msg_B']);
    });

    it('adds a delivery once and leases a due one to one claimer until its lease ends', async () => {
      await repo.addDeliveries([aDelivery('dlv_A', 10)]);
      await repo.addDeliveries([{ ...aDelivery('dlv_A', 10), body: 'changed' }]);
      expect(await repo.claimDue(at(5), at(65), 8)).to.deep.equal([]);
      const claimed = await repo.claimDue(at(10), at(70), 8);
      expect(claimed.map((d) => [d.id, d.body])).to.deep.equal([['dlv_A', '{"type":"registration.approved"}']]);
      expect(await repo.claimDue(at(11), at(71), 8)).to.deep.equal([]);
      expect((await repo.claimDue(at(70), at(130), 8)).map((d) => d.id)).to.deep.equal(['dlv_A']);
    });

    it('records attempts: a retry is due at its time, a success never again', async () => {
      await repo.addDeliveries([aDelivery('dlv_A', 1), aDelivery('dlv_B', 1, HOOK_B)]);
      await repo.claimDue(at(1), at(61), 8);
      await repo.recordAttempt(
        aDelivery('dlv_A', 1),
        { at: at(2), error: 'ECONNREFUSED', durationMs: 3 },
        { status: 'pending', nextAttemptAt: at(32) },
      );
      await repo.recordAttempt(
        aDelivery('dlv_B', 1, HOOK_B),
        { at: at(2), statusCode: 204, durationMs: 3 },
        { status: 'succeeded' },
      );
      expect(await repo.claimDue(at(31), at(91), 8)).to.deep.equal([]);
      const retried = await repo.claimDue(at(32), at(92), 8);
      expect(retried.map((d) => d.id)).to.deep.equal(['dlv_A']);
      expect(retried[0].attempts).to.deep.equal([{ at: at(2), error: 'ECONNREFUSED', durationMs: 3 }]);
      expect(await repo.get(ORG_A, HOOK_B, 'dlv_B')).to.deep.include({
        status: 'succeeded',
        attempts: [{ at: at(2), statusCode: 204, durationMs: 3 }],
      });
    });

    it("lists a webhook's deliveries in pages, never to another organization, and redelivers a finished one", async () => {
      await repo.addDeliveries([aDelivery('dlv_B', 2), aDelivery('dlv_A', 1), aDelivery('dlv_C', 3, HOOK_B)]);
      const first = await repo.list(ORG_A, HOOK_A, { limit: 1 });
      expect(first.map((d) => d.id)).to.deep.equal(['dlv_A']);
      expect((await repo.list(ORG_A, HOOK_A, { limit: 5, after: first[0] })).map((d) => d.id)).to.deep.equal(['dlv_B']);
      expect(await repo.list(ORG_B, HOOK_A, { limit: 5 })).to.deep.equal([]);
      expect(await repo.redeliver(ORG_B, HOOK_A, 'dlv_A', at(9))).to.equal(null);

      await repo.claimDue(at(1), at(61), 8);
      await repo.recordAttempt(
        aDelivery('dlv_A', 1),
        { at: at(2), statusCode: 500, durationMs: 1 },
        { status: 'failed' },
      );
      const again = await repo.redeliver(ORG_A, HOOK_A, 'dlv_A', at(100));
      expect(again).to.deep.include({ status: 'pending', messageId: 'msg_dlv_A', since: at(100) });
      expect((await repo.claimDue(at(100), at(160), 8)).map((d) => d.id)).to.include('dlv_A');
    });

    it("forgets a deleted webhook's deliveries", async () => {
      await repo.addDeliveries([aDelivery('dlv_A', 1), aDelivery('dlv_C', 1, HOOK_B)]);
      await repo.removeWebhook(ORG_B, HOOK_A);
      expect(await repo.list(ORG_A, HOOK_A, { limit: 5 })).to.have.length(1);
      await repo.removeWebhook(ORG_A, HOOK_A);
      expect(await repo.list(ORG_A, HOOK_A, { limit: 5 })).to.deep.equal([]);
      expect((await repo.claimDue(at(1), at(61), 8)).map((d) => d.id)).to.deep.equal(['dlv_C']);
    });
  });
}
