/**
 * The webhook events of provisioning (`provisioning.succeeded|failed`): emitted when a provisioning step ends, before
 * the step is marked so. Their id is derived from the step, its outcome and its attempt, so a crash between the
 * event and the mark, which runs the step again, makes the same event (one `webhook-id`), not a second one.
 */
import type { Store } from '../../deps.js';
import { PROVISIONING_ACTOR, type ProvisioningSettled } from '../provisioning/provisioning-worker.js';
import { registrationEvent } from '../registrations/registration-event.js';
import { acceptEvent, derivedId } from '../outbox/webhook-inbox.js';

interface ProvisioningEventDeps {
  store: Pick<Store, 'registrations' | 'webhooks' | 'webhookDeliveries'>;
  /** Nudges the dispatcher after an event is stored. */
  webhooks?: { kick(): void };
}

export function provisioningEvents(deps: ProvisioningEventDeps): (settled: ProvisioningSettled) => Promise<void> {
  return async ({ step, outcome, error, at }) => {
    // Read again: a registration step has just given the registration its clientId.
    const registration = await deps.store.registrations.get(step.organizationId, step.registrationId);
    if (!registration) return;
    const type = outcome === 'done' ? 'provisioning.succeeded' : 'provisioning.failed';
    const event = registrationEvent(type, registration, PROVISIONING_ACTOR, at);
    await acceptEvent(deps.store, {
      id: derivedId('msg', step.id, outcome, String(step.attempts)),
      ...event,
      data: {
        ...event.data,
        provisioning: { step: step.kind, attempts: step.attempts, ...(error !== undefined && { error }) },
      },
    });
    deps.webhooks?.kick();
  };
}
