/** A webhook's delivery log stays within one document: pending deliveries capped, finished ones trimmed. */
import { expect } from 'chai';
import { nextDueAt, withAttempt, withDeliveries } from '../../../../server/components/webhooks/delivery-log.js';
import type { Delivery } from '../../../../server/components/webhooks/webhooks.model.js';

/** The bounds the deliveries list documents: 1000 pending, the last 100 finished. */
const MAX_PENDING = 1000;
const LOG_LIMIT = 100;

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, 0, s));

function aDelivery(n: number): Delivery {
  const id = `dlv_${String(n).padStart(22, '0')}`;
  return {
    id,
    webhookId: 'whk_A',
    organizationId: 'org_A',
    messageId: `msg_${n}`,
    type: 'registration.approved',
    body: '{}',
    status: 'pending',
    attempts: [],
    nextAttemptAt: at(n),
    since: at(n),
    createdAt: at(n),
  };
}

describe("a webhook's delivery log", () => {
  it('fails the oldest pending deliveries past the cap, saying why, and keeps the newest pending', () => {
    const log = withDeliveries(
      [],
      Array.from({ length: MAX_PENDING + 2 }, (_, n) => aDelivery(n)),
    );
    expect(log.filter((d) => d.status === 'pending')).to.have.length(MAX_PENDING);
    const dropped = log.filter((d) => d.status === 'failed');
    expect(dropped.map((d) => d.messageId)).to.deep.equal(['msg_0', 'msg_1']);
    expect(dropped[0].attempts[0].error).to.equal(`dropped: more than ${MAX_PENDING} deliveries were pending`);
    expect(nextDueAt(log)).to.deep.equal(at(2));
  });

  it('keeps the newest finished deliveries up to the limit', () => {
    let log = withDeliveries(
      [],
      Array.from({ length: LOG_LIMIT + 3 }, (_, n) => aDelivery(n)),
    );
    for (const delivery of [...log])
      log = withAttempt(log, delivery.id, { at: at(5000), statusCode: 200, durationMs: 1 }, { status: 'succeeded' });
    expect(log).to.have.length(LOG_LIMIT);
    expect(log[0].messageId).to.equal('msg_3');
  });
});
