/**
 * Webhooks (events out, docs/architecture.md §1.11): an organization's subscriptions (a URL and the event types it
 * wants, signed with its own secret), the events the service emits, and their deliveries to each subscription with
 * every attempt (Standard Webhooks: the delivery's `webhook-id` is the event's id, the same on every attempt).
 */

/**
 * @public The event types, listed once: the type is derived from it, and schemas/api/webhook-event-type.schema.json,
 * which every webhook body refers to, lists the same (a test holds them together).
 */
export const WEBHOOK_EVENT_TYPES = [
  'registration.submitted',
  'registration.approved',
  'registration.rejected',
  'registration.changes_requested',
  'registration.withdrawn',
  'registration.suspended',
  'registration.unsuspended',
  'registration.deprecated',
  'registration.deleted',
  'change_set.submitted',
  'change_set.approved',
  'change_set.rejected',
  'change_set.withdrawn',
  'provisioning.succeeded',
  'provisioning.failed',
  'secret.rotated',
  'secret.expiring',
  'secret.expired',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Subscriptions an organization may hold. */
export const MAX_WEBHOOKS_PER_ORGANIZATION = 20;

export interface Webhook {
  id: string;
  organizationId: string;
  url: string;
  events: WebhookEventType[];
  description: string;
  /** The signing secret (`whsec_…`), sealed with the service's key (webhook-signing.ts); shown once at creation. */
  secretSealed: string;
  revision: number;
  createdAt: Date;
  updatedAt: Date;
  createdBy: string;
}

/** An event as the service emits it; its id is every delivery's `webhook-id`. */
export interface WebhookEvent {
  /** `msg_…`, fixed when the event is made (an outbox replay emits the same event, not a second one). */
  id: string;
  type: WebhookEventType;
  organizationId: string;
  timestamp: Date;
  /** `{ organizationId, registration | changeSet, actor }`: the body's `data`. */
  data: Record<string, unknown>;
}

/** @public The delivery statuses, listed once: the type is derived from it. */
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface DeliveryAttempt {
  at: Date;
  /** The receiver's answer; absent when there was none (refused target, timeout, connection error). */
  statusCode?: number;
  /** Why it failed when it did (never the receiver's body). */
  error?: string;
  durationMs: number;
}

export interface Delivery {
  /** `dlv_…`, derived from the event and the webhook: fanning an event out twice makes one delivery. */
  id: string;
  webhookId: string;
  organizationId: string;
  /** The event's id: the `webhook-id` header. */
  messageId: string;
  type: WebhookEventType;
  /** The exact JSON body sent (and signed) on every attempt. */
  body: string;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  /** When a pending delivery is tried next. */
  nextAttemptAt?: Date;
  /** An attempt in flight: another instance leaves it alone until then. */
  leaseUntil?: Date;
  /** Retries stop 24 h after this (a redelivery starts a new day). */
  since: Date;
  createdAt: Date;
}
