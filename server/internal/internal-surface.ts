/**
 * Wiring of the internal surface for an entry point: provisioning from the settings (its worker polling for due
 * retries), the webhook dispatcher (polling every WEBHOOKS_POLL_INTERVAL_MS for events and due retries — not at all
 * where no webhook can exist: MongoDB without PROVISIONING_ENCRYPTION_KEY, see webhook-signing.ts), the drain of the
 * records' outboxes (at start, then periodically: effects a crash left undelivered), then `createInternalApp` with
 * the hooks. `main.ts` listens on INTERNAL_PORT with `app` and calls `stop()` on shutdown (the worker finishes its
 * current step; nothing is lost, the outboxes keep the rest).
 */
import type express from 'express';
import type { ApiDeps } from '../deps.js';
import { createProvisioning, type Provisioning } from '../components/provisioning/create-provisioning.js';
import { createOutboxDrain, type OutboxDrain } from '../components/outbox/outbox-drain.js';
import { createWebhookDispatcher, type WebhookDispatcher } from '../components/webhooks/webhook-dispatcher.js';
import { provisioningEvents } from '../components/webhooks/provisioning-events.js';
import { webhooksPossible } from '../components/webhooks/webhook-signing.js';
import { createInternalApp, type InternalDeps } from './app.js';

/** How often the worker looks for steps whose retry time has come. */
const PROVISIONING_POLL_MS = 1000;

export interface InternalSurface {
  app: express.Express;
  provisioning?: Provisioning;
  outbox: OutboxDrain;
  webhooks: WebhookDispatcher;
  stop(): Promise<void>;
}

export function createInternalSurface(
  deps: ApiDeps,
  options: { console?: InternalDeps['console'] } = {},
): InternalSurface {
  const webhooks = createWebhookDispatcher(deps);
  // Events written by other instances, secret notices that came due and retries, every WEBHOOKS_POLL_INTERVAL_MS; none
  // where creating a webhook answers 409 (a pass would be three queries finding nothing, forever).
  if (webhooksPossible(deps)) webhooks.start(deps.config.webhooksPollIntervalMs);
  else
    deps.logger.info(
      { store: deps.store.kind },
      'webhook dispatcher not polling: webhooks need PROVISIONING_ENCRYPTION_KEY on MongoDB',
    );
  const provisioning = createProvisioning(deps, { onSettled: provisioningEvents({ store: deps.store, webhooks }) });
  provisioning?.worker.start(PROVISIONING_POLL_MS);
  const outbox = createOutboxDrain({ ...deps, webhooks, ...(provisioning && { provisioning: provisioning.hook }) });
  // Records' outboxes a crash or an outage left undelivered (normally none), every OUTBOX_DRAIN_INTERVAL_MS.
  outbox.start(deps.config.outboxDrainIntervalMs);
  const app = createInternalApp({
    ...deps,
    webhooks,
    ...(provisioning && { provisioning: provisioning.hook, provisioningWorker: provisioning.worker }),
    ...(options.console && { console: options.console }),
  });
  return {
    app,
    provisioning,
    outbox,
    webhooks,
    async stop() {
      await outbox.stop();
      await provisioning?.worker.stop();
      await webhooks.stop();
    },
  };
}
