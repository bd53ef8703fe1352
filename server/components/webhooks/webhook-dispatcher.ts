/**
 * The webhook dispatcher: turns the client-secret notices that came due into events (secrets/secret-notices.ts),
 * fans the inbox's events out into a delivery per subscribed webhook (the delivery's id
 * derived from the event and the webhook, so fanning out twice makes one), then attempts the due deliveries — each
 * claimed with a lease, so two instances never send the same attempt and a dead instance's claim expires — and
 * records every attempt. A failed attempt is retried after WEBHOOKS_RETRY_BASE_MS, doubled each time, for 24 h from
 * the delivery (or its redelivery); then the delivery is failed. At least once, with a stable `webhook-id`.
 */
import type { ApiDeps } from '../../deps.js';
import { derivedId } from '../outbox/webhook-inbox.js';
import { emitDueSecretNotices } from '../secrets/secret-notices.js';
import { sendDelivery } from './webhook-sender.js';
import { signingSecretBinding, signingSecretCipher } from './webhook-signing.js';
import type { Delivery, DeliveryAttempt, Webhook, WebhookEvent } from './webhooks.model.js';
import { createBackgroundRunner, type BackgroundRunner } from '../../../lib/background-runner.js';

const RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;
/**
 * Twice what an attempt can take (10 s): only a dead instance's claim expires, and a delivery whose attempt could
 * not be recorded (the database failed meanwhile) is tried again this soon.
 */
const LEASE_MS = 20_000;
const EVENTS_PER_RUN = 100;
/** Deliveries attempted at once (one slow receiver does not hold up the others). */
const CONCURRENCY = 8;
/** Claim rounds per run: bounds one run when receivers keep failing fast. */
const ROUNDS = 20;

type DispatcherDeps = Pick<ApiDeps, 'store' | 'clock' | 'config'> & Partial<Pick<ApiDeps, 'logger'>>;

/**
 * A pass fans out pending events and attempts every due delivery, counting the attempts; `kick` after an event was
 * stored, the poll for events of other instances and deliveries whose retry time has come.
 */
export type WebhookDispatcher = BackgroundRunner;

/** The body every attempt of an event's delivery sends: `{ type, timestamp, data }`. */
function eventBody(event: WebhookEvent): string {
  return JSON.stringify({ type: event.type, timestamp: event.timestamp.toISOString(), data: event.data });
}

export function createWebhookDispatcher(deps: DispatcherDeps): WebhookDispatcher {
  const { store, clock, config, logger } = deps;

  async function fanOut(): Promise<void> {
    for (const event of await store.webhookDeliveries.pendingEvents(EVENTS_PER_RUN)) {
      const now = clock();
      const subscribed = (await store.webhooks.list(event.organizationId)).filter((w) => w.events.includes(event.type));
      const body = eventBody(event);
      const deliveries: Delivery[] = subscribed.map((webhook) => ({
        id: derivedId('dlv', event.id, webhook.id),
        webhookId: webhook.id,
        organizationId: event.organizationId,
        messageId: event.id,
        type: event.type,
        body,
        status: 'pending',
        attempts: [],
        nextAttemptAt: now,
        since: now,
        createdAt: now,
      }));
      if (deliveries.length > 0) await store.webhookDeliveries.addDeliveries(deliveries);
      await store.webhookDeliveries.removeEvent(event.id);
    }
  }

  /** What comes after a failed attempt: the next one after the backoff, or failed once the 24 h are over. */
  function afterFailure(delivery: Delivery, attempts: number, at: Date) {
    const next = new Date(at.getTime() + config.webhooksRetryBaseMs * 2 ** (attempts - 1));
    return next.getTime() > delivery.since.getTime() + RETRY_WINDOW_MS
      ? { status: 'failed' as const }
      : { status: 'pending' as const, nextAttemptAt: next };
  }

  function signingSecretOf(webhook: Webhook): string | undefined {
    try {
      return signingSecretCipher(deps).decrypt(webhook.secretSealed, signingSecretBinding(webhook.id));
    } catch {
      return undefined;
    }
  }

  async function attempt(delivery: Delivery): Promise<void> {
    const webhook = await store.webhooks.get(delivery.organizationId, delivery.webhookId);
    const at = clock();
    let result: DeliveryAttempt & { ok: boolean };
    const secret = webhook ? signingSecretOf(webhook) : undefined;
    if (!webhook) result = { ok: false, at, durationMs: 0, error: 'the webhook was deleted' };
    else if (secret === undefined)
      // Sealed with another key (PROVISIONING_ENCRYPTION_KEY changed): no attempt can ever be signed.
      result = { ok: false, at, durationMs: 0, error: 'the signing secret cannot be unsealed with the current key' };
    else {
      result = await sendDelivery({
        url: webhook.url,
        secret,
        messageId: delivery.messageId,
        body: delivery.body,
        now: at,
        allowPrivate: config.webhooksAllowPrivateTargets,
      });
    }
    const { ok, ...recorded } = result;
    const attempts = delivery.attempts.length + 1;
    const outcome = ok
      ? { status: 'succeeded' as const }
      : secret !== undefined
        ? afterFailure(delivery, attempts, at)
        : { status: 'failed' as const };
    await store.webhookDeliveries.recordAttempt(delivery, recorded, outcome);
    if (!ok)
      logger?.info(
        { webhook: delivery.webhookId, delivery: delivery.id, attempts, error: recorded.error, next: outcome.status },
        'webhook delivery attempt failed',
      );
  }

  async function deliverDue(): Promise<number> {
    let count = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      const now = clock();
      const claimed = await store.webhookDeliveries.claimDue(now, new Date(now.getTime() + LEASE_MS), CONCURRENCY);
      if (claimed.length === 0) break;
      await Promise.all(
        claimed.map((delivery) =>
          attempt(delivery).catch((error: unknown) =>
            // Recorded nothing (the database failed): the lease ends and the delivery is attempted again.
            logger?.warn({ err: error, delivery: delivery.id }, 'webhook delivery attempt not recorded'),
          ),
        ),
      );
      count += claimed.length;
    }
    return count;
  }

  /** One pass: the secret notices due, then events fanned out, then due deliveries attempted. */
  async function pass(): Promise<number> {
    await emitDueSecretNotices(store, clock());
    await fanOut();
    return deliverDue();
  }

  return createBackgroundRunner(pass, (error) => logger?.error({ err: error }, 'webhook dispatch failed'));
}
