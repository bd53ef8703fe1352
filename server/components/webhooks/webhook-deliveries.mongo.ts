/**
 * Webhook events and deliveries on MongoDB (webhooks.schema.ts lists the collections): the inbox is written by
 * inserts (a duplicate id is an event already there), a webhook's delivery log is read by `{ _id }` and replaced
 * under the webhook's lock, and `webhook_due` says which logs have work and when. The contract of the embedded
 * repository.
 */
import mongoose, { type Connection } from 'mongoose';
import { copyPlain } from '../../../lib/copy-plain.js';
import { pageOf } from '../../db/keyset-page.js';
import { isDuplicateKey } from '../../db/duplicate-key.js';
import { queryTimeoutMs } from '../../db/query-limits.js';
import type { WriteLocks } from '../../db/write-locks.js';
import { claimDue, nextDueAt, redeliver, withAttempt, withDeliveries, type DeliveryLog } from './delivery-log.js';
import type { WebhookDeliveryRepository } from './webhook-deliveries.repository.js';
import type { Delivery, WebhookEvent } from './webhooks.model.js';
import { webhookModels } from './webhooks.schema.js';

/** Logs one dispatcher poll looks at, at most. */
const DUE_PAGE = 20;

export function createMongoWebhookDeliveryRepository(
  connection: Connection,
  locks: WriteLocks,
): WebhookDeliveryRepository {
  const { Inbox, Logs, Due } = webhookModels(connection);
  const maxTimeMS = queryTimeoutMs(connection);

  async function readLog(webhookId: string): Promise<{ organizationId: string; log: DeliveryLog } | null> {
    const doc = await Logs.findOne({ _id: webhookId })
      .lean<{ organizationId: string; deliveries: Delivery[] }>()
      .maxTimeMS(maxTimeMS);
    return doc ? { organizationId: doc.organizationId, log: doc.deliveries } : null;
  }

  /** Writes a log and when it next has work (no work: its due mark goes). */
  async function writeLog(webhookId: string, organizationId: string, log: DeliveryLog): Promise<void> {
    await Logs.replaceOne(
      { _id: webhookId },
      { organizationId, deliveries: copyPlain(log) },
      { upsert: true, maxTimeMS },
    );
    const at = nextDueAt(log);
    if (at) await Due.replaceOne({ _id: webhookId }, { organizationId, at }, { upsert: true, maxTimeMS });
    else await Due.deleteOne({ _id: webhookId }, { maxTimeMS });
  }

  /** Runs `change` on the webhook's log under its lock and stores what it returns. */
  function changeLog<T>(
    webhookId: string,
    organizationId: string,
    change: (log: DeliveryLog) => { log: DeliveryLog; result: T },
  ): Promise<T> {
    return locks.withLock(`webhook-log:${webhookId}`, async () => {
      const stored = await readLog(webhookId);
      if (stored && stored.organizationId !== organizationId) return change([]).result;
      const { log, result } = change(stored?.log ?? []);
      if (stored || log.length > 0) await writeLog(webhookId, organizationId, log);
      return result;
    });
  }

  return {
    async enqueueEvent(event) {
      try {
        await Inbox.collection.insertOne(
          {
            _id: event.id,
            organizationId: event.organizationId,
            type: event.type,
            timestamp: event.timestamp,
            data: copyPlain(event.data),
          } as never,
          { maxTimeMS },
        );
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
    },
    async pendingEvents(limit) {
      const docs = await Inbox.find({})
        .sort({ timestamp: 1, _id: 1 })
        .limit(limit)
        .lean<(Omit<WebhookEvent, 'id'> & { _id: string })[]>()
        .maxTimeMS(maxTimeMS);
      return docs.map(({ _id, ...event }) => ({ id: _id, ...event }));
    },
    async removeEvent(id) {
      await Inbox.deleteOne({ _id: id }, { maxTimeMS });
    },
    async addDeliveries(deliveries) {
      const byWebhook = new Map<string, Delivery[]>();
      for (const delivery of deliveries)
        byWebhook.set(delivery.webhookId, [...(byWebhook.get(delivery.webhookId) ?? []), delivery]);
      for (const [webhookId, added] of byWebhook)
        await changeLog(webhookId, added[0].organizationId, (log) => ({ log: withDeliveries(log, added), result: 0 }));
    },
    async claimDue(now, leaseUntil, limit) {
      const due = await Due.find({ at: mongoose.trusted({ $lte: now }) })
        .sort({ at: 1, _id: 1 })
        .limit(DUE_PAGE)
        .lean<{ _id: string; organizationId: string }[]>()
        .maxTimeMS(maxTimeMS);
      const claimed: Delivery[] = [];
      for (const { _id: webhookId, organizationId } of due) {
        if (claimed.length >= limit) break;
        const left = limit - claimed.length;
        claimed.push(
          ...(await changeLog(webhookId, organizationId, (log) => {
            const result = claimDue(log, now, leaseUntil, left);
            return { log: result.log, result: result.claimed };
          })),
        );
      }
      return claimed;
    },
    async recordAttempt(delivery, attempt, outcome) {
      await changeLog(delivery.webhookId, delivery.organizationId, (log) => ({
        log: withAttempt(log, delivery.id, attempt, outcome),
        result: undefined,
      }));
    },
    async list(organizationId, webhookId, query) {
      const stored = await readLog(webhookId);
      return stored && stored.organizationId === organizationId ? pageOf(stored.log, query) : [];
    },
    async get(organizationId, webhookId, id) {
      const stored = await readLog(webhookId);
      if (!stored || stored.organizationId !== organizationId) return null;
      return stored.log.find((d) => d.id === id) ?? null;
    },
    async redeliver(organizationId, webhookId, id, now) {
      return changeLog(webhookId, organizationId, (log) => {
        const result = redeliver(log, id, now);
        return { log: result.log, result: result.delivery ?? null };
      });
    },
    async removeWebhook(organizationId, webhookId) {
      await locks.withLock(`webhook-log:${webhookId}`, async () => {
        const stored = await readLog(webhookId);
        if (!stored || stored.organizationId !== organizationId) return;
        await Logs.deleteOne({ _id: webhookId }, { maxTimeMS });
        await Due.deleteOne({ _id: webhookId }, { maxTimeMS });
      });
    },
  };
}
