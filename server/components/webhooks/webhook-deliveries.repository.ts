/**
 * Webhook events and deliveries: the interface both stores pass the contract suite against, and the embedded
 * implementation. Events wait in an inbox (written by the outbox of the transition that made them, so none is lost)
 * until the dispatcher fans them out into the subscribed webhooks' delivery logs (delivery-log.ts); due deliveries
 * are claimed with a lease, attempted, and recorded.
 */
import { copyPlain } from '../../../lib/copy-plain.js';
import { pageOf, type PageQuery } from '../../db/keyset-page.js';
import { claimDue, nextDueAt, redeliver, withAttempt, withDeliveries, type DeliveryLog } from './delivery-log.js';
import type { Delivery, DeliveryAttempt, DeliveryStatus, WebhookEvent } from './webhooks.model.js';

export interface WebhookDeliveryRepository {
  /** Keeps the event until `removeEvent` (idempotent by its id: an outbox replay adds nothing). */
  enqueueEvent(event: WebhookEvent): Promise<void>;
  /** Events not fanned out yet, oldest first. */
  pendingEvents(limit: number): Promise<WebhookEvent[]>;
  removeEvent(id: string): Promise<void>;
  /** Adds deliveries to their webhooks' logs (one already there, by id, stays as it is). */
  addDeliveries(deliveries: readonly Delivery[]): Promise<void>;
  /** Leases up to `limit` due deliveries, across webhooks, until `leaseUntil`. */
  claimDue(now: Date, leaseUntil: Date, limit: number): Promise<Delivery[]>;
  recordAttempt(
    delivery: Pick<Delivery, 'organizationId' | 'webhookId' | 'id'>,
    attempt: DeliveryAttempt,
    outcome: { status: DeliveryStatus; nextAttemptAt?: Date },
  ): Promise<void>;
  /** A webhook's deliveries, oldest first, after `query.after`. */
  list(organizationId: string, webhookId: string, query: PageQuery): Promise<Delivery[]>;
  get(organizationId: string, webhookId: string, id: string): Promise<Delivery | null>;
  /** The delivery pending again now, or null when the webhook has no such delivery. */
  redeliver(organizationId: string, webhookId: string, id: string, now: Date): Promise<Delivery | null>;
  /** Forgets a deleted webhook's deliveries. */
  removeWebhook(organizationId: string, webhookId: string): Promise<void>;
}

export function createMemoryWebhookDeliveryRepository(): WebhookDeliveryRepository {
  const inbox = new Map<string, WebhookEvent>();
  const logs = new Map<string, { organizationId: string; log: DeliveryLog }>();
  const logOf = (organizationId: string, webhookId: string) => {
    const entry = logs.get(webhookId);
    return entry && entry.organizationId === organizationId ? entry.log : undefined;
  };

  return {
    async enqueueEvent(event) {
      if (!inbox.has(event.id)) inbox.set(event.id, copyPlain(event));
    },
    async pendingEvents(limit) {
      return [...inbox.values()]
        .sort((a, b) => a.timestamp.getTime() - b.timestamp.getTime() || (a.id < b.id ? -1 : 1))
        .slice(0, limit)
        .map(copyPlain);
    },
    async removeEvent(id) {
      inbox.delete(id);
    },
    async addDeliveries(deliveries) {
      for (const delivery of deliveries) {
        const entry = logs.get(delivery.webhookId) ?? { organizationId: delivery.organizationId, log: [] };
        logs.set(delivery.webhookId, { ...entry, log: withDeliveries(entry.log, [delivery]) });
      }
    },
    async claimDue(now, leaseUntil, limit) {
      const claimed: Delivery[] = [];
      const due = [...logs.entries()]
        .map(([webhookId, entry]) => ({ webhookId, entry, at: nextDueAt(entry.log) }))
        .filter((l) => l.at !== undefined && l.at <= now)
        .sort((a, b) => (a.at as Date).getTime() - (b.at as Date).getTime());
      for (const { webhookId, entry } of due) {
        if (claimed.length >= limit) break;
        const result = claimDue(entry.log, now, leaseUntil, limit - claimed.length);
        logs.set(webhookId, { ...entry, log: result.log });
        claimed.push(...result.claimed);
      }
      return claimed;
    },
    async recordAttempt(delivery, attempt, outcome) {
      const entry = logs.get(delivery.webhookId);
      if (!entry || entry.organizationId !== delivery.organizationId) return;
      logs.set(delivery.webhookId, { ...entry, log: withAttempt(entry.log, delivery.id, attempt, outcome) });
    },
    async list(organizationId, webhookId, query) {
      return pageOf(logOf(organizationId, webhookId) ?? [], query).map(copyPlain);
    },
    async get(organizationId, webhookId, id) {
      const delivery = logOf(organizationId, webhookId)?.find((d) => d.id === id);
      return delivery ? copyPlain(delivery) : null;
    },
    async redeliver(organizationId, webhookId, id, now) {
      const log = logOf(organizationId, webhookId);
      if (!log) return null;
      const result = redeliver(log, id, now);
      logs.set(webhookId, { organizationId, log: result.log });
      return result.delivery ?? null;
    },
    async removeWebhook(organizationId, webhookId) {
      if (logOf(organizationId, webhookId)) logs.delete(webhookId);
    },
  };
}
