/**
 * The effects of a transition as outbox events (outbox.model.ts), built before the write that carries them: the
 * audit entry gets its id here, once, so every later delivery of it is the same entry; the provisioning step's id
 * is already fixed by (registration, kind, revision).
 */
import { newOrderedId } from '../../ids.js';
import type { OutboxEvent, ProvisioningStepEvent } from './outbox.model.js';
import type { AuditEntry } from '../audit/audit.model.js';
import type { WebhookEvent } from '../webhooks/webhooks.model.js';

export interface TransitionEffects {
  /** The audit entry of the transition (`at` is the transition's time, `revision` the target's after it). */
  audit: Omit<AuditEntry, 'id'>;
  /** The provisioning step the transition implies, when the authorization server must follow it. */
  provisioning?: ProvisioningStepEvent;
  /** The webhook event the transition emits (its id is given here, once, like the audit entry's). */
  webhook?: Omit<WebhookEvent, 'id'>;
}

export function transitionEvents(effects: TransitionEffects): OutboxEvent[] {
  const audit = { ...effects.audit, id: newOrderedId('aud') };
  const entry = Object.fromEntries(
    Object.entries(audit).filter(([, value]) => value !== undefined),
  ) as unknown as AuditEntry;
  const events: OutboxEvent[] = [{ id: entry.id, kind: 'audit', entry }];
  const step = effects.provisioning;
  if (step) events.push({ id: `${step.registrationId}:${step.kind}:${step.revision}`, kind: 'provisioning', step });
  if (effects.webhook) {
    const id = newOrderedId('msg');
    events.push({ id, kind: 'webhook', event: { ...effects.webhook, id } });
  }
  return events;
}
