/**
 * The webhook events of registrations (webhooks/webhooks.model.ts): `{ type, timestamp, data: { organizationId,
 * registration, actor } }`, the registration as the API shows it (without the caller's actions) at the moment of
 * the event.
 */
import type { WebhookEvent, WebhookEventType } from '../webhooks/webhooks.model.js';
import { registrationResource } from './registration-view.js';
import type { Registration, RegistrationChanges } from './registrations.model.js';
import { applyRegistrationChanges } from './registrations.repository.js';

export function registrationEvent(
  type: WebhookEventType,
  record: Registration,
  actor: string,
  now: Date,
): Omit<WebhookEvent, 'id'> {
  return {
    type,
    organizationId: record.organizationId,
    timestamp: now,
    data: { organizationId: record.organizationId, registration: registrationResource(record, now), actor },
  };
}

/** The record a conditional write of `changes` produces (what an event made before the write shows). */
export function recordAfter(current: Registration, changes: RegistrationChanges, now: Date): Registration {
  return { ...applyRegistrationChanges(current, changes), revision: current.revision + 1, updatedAt: now };
}
