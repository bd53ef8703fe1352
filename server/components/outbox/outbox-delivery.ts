/**
 * Delivers the effects records carry in their outbox (outbox.model.ts): audit entries to the audit log,
 * provisioning steps to the provisioning outbox, webhook events to the webhooks' inbox, then removes them from the
 * record. Every delivery is idempotent,
 * so it runs right after each transition, at start, before audit reads and periodically, on any instance, and a
 * crash at any point only means the next run delivers what is left.
 */
import type { Logger } from '../../../lib/logger.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { ProvisioningHook } from '../provisioning/provisioning-hook.js';
import type { ProvisioningRepository } from '../provisioning/provisioning.repository.js';
import type { OutboxDelivery, OutboxEvent, OutboxFields, OutboxStore } from './outbox.model.js';
import type { WebhookDeliveryRepository } from '../webhooks/webhook-deliveries.repository.js';
import type { WebhookRepository } from '../webhooks/webhooks.repository.js';
import { acceptEvent } from './webhook-inbox.js';

/** The repositories whose records carry an outbox. */
export type OutboxHolder = 'registrations' | 'changeSets';

/** A record with an outbox, as the delivery sees it. */
export type OutboxRecord = OutboxFields & { organizationId: string; id: string };

/** What delivering needs: where the events go (audit log, provisioning outbox) and the records that hold them. */
export interface OutboxDeps {
  store: {
    audit: Pick<AuditRepository, 'append'>;
    provisioning: Pick<ProvisioningRepository, 'enqueue'>;
    webhooks: Pick<WebhookRepository, 'list'>;
    webhookDeliveries: Pick<WebhookDeliveryRepository, 'enqueueEvent'>;
  } & { [H in OutboxHolder]: OutboxStore<OutboxRecord> };
  clock: () => Date;
  /** Nudges the provisioning worker after a step is stored; without it the worker's poll finds the step. */
  provisioning?: ProvisioningHook;
  /** Nudges the webhook dispatcher after an event is stored; without it the dispatcher's poll finds the event. */
  webhooks?: { kick(): void };
  logger?: Pick<Logger, 'warn' | 'error'>;
}

/** Delivers events in order; the ids delivered before the first failure, and that failure. */
async function deliverEvents(
  deps: OutboxDeps,
  events: readonly OutboxEvent[],
): Promise<{ delivered: string[]; error?: unknown }> {
  const delivered: string[] = [];
  try {
    for (const event of events) {
      if (event.kind === 'audit') await deps.store.audit.append(event.entry);
      else if (event.kind === 'webhook') {
        await acceptEvent(deps.store, event.event);
        deps.webhooks?.kick();
      } else if (deps.provisioning) await deps.provisioning.enqueue(event.step);
      else await deps.store.provisioning.enqueue({ ...event.step, now: deps.clock() });
      delivered.push(event.id);
    }
  } catch (error) {
    return { delivered, error };
  }
  return { delivered };
}

/**
 * What a repository calls right after the write that carried the events (with the record still locked): never
 * fails the write; what is not delivered now stays for the drain.
 */
export function outboxDelivery(deps: OutboxDeps): OutboxDelivery {
  return async (events) => {
    const { delivered, error } = await deliverEvents(deps, events);
    if (error !== undefined) deps.logger?.warn({ err: error }, 'outbox not delivered yet; the drain will deliver it');
    return delivered;
  };
}

/** Delivers one record's outbox and clears what was delivered; throws when a delivery fails (the rest stays). */
export async function deliverOutbox(deps: OutboxDeps, holder: OutboxHolder, record: OutboxRecord): Promise<void> {
  const events = record.outbox ?? [];
  if (events.length === 0) return;
  const { delivered, error } = await deliverEvents(deps, events);
  if (delivered.length > 0) await deps.store[holder].clearOutbox(record.organizationId, record.id, delivered);
  if (error !== undefined) throw error instanceof Error ? error : new Error('outbox delivery failed', { cause: error });
}

/** The record as callers see it: its outbox is storage bookkeeping. */
export function withoutOutbox<T extends OutboxFields>(record: T): T {
  const { outbox: _outbox, outboxAt: _outboxAt, ...rest } = record;
  return rest as T;
}

/**
 * Right after a committed write: delivers its outbox, never failing the request (the write, with its effects, is
 * what was acknowledged; the drain delivers later whatever fails now). Returns the record without its outbox.
 */
export async function deliverAfterCommit<T extends OutboxRecord>(
  deps: OutboxDeps,
  holder: OutboxHolder,
  record: T,
): Promise<T> {
  try {
    await deliverOutbox(deps, holder, record);
  } catch (error) {
    deps.logger?.warn({ err: error, holder, id: record.id }, 'outbox not delivered yet; the drain will deliver it');
  }
  return withoutOutbox(record);
}
