/**
 * Where an emitted event goes: into the webhooks' inbox, from where the dispatcher fans it out — unless no webhook
 * of its organization wants its type now, then nowhere (an event is for the webhooks subscribed when it happens).
 * Idempotent by the event's id, as outbox delivery requires.
 */
import { createHash } from 'node:crypto';
import type { Store } from '../../deps.js';
import type { WebhookEvent } from '../webhooks/webhooks.model.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export async function acceptEvent(
  store: {
    webhooks: Pick<Store['webhooks'], 'list'>;
    webhookDeliveries: Pick<Store['webhookDeliveries'], 'enqueueEvent'>;
  },
  event: WebhookEvent,
): Promise<void> {
  const webhooks = await store.webhooks.list(event.organizationId);
  if (!webhooks.some((webhook) => webhook.events.includes(event.type))) return;
  await store.webhookDeliveries.enqueueEvent(event);
}

/** An id derived from `parts` (`<prefix>_` + 22 base62 characters): the same parts, the same event or delivery. */
export function derivedId(prefix: string, ...parts: string[]): string {
  const digest = createHash('sha256').update(JSON.stringify(parts)).digest();
  let id = '';
  for (let i = 0; i < 22; i += 1) id += BASE62[digest[i] % 62];
  return `${prefix}_${id}`;
}
