/**
 * The transactional outbox a record carries: the side effects of a transition — its audit entry,
 * the provisioning step it implies and its webhook event — are written in the SAME single-document update as the transition, so an
 * acknowledged transition can never lack them, whatever fails next. They are delivered right after the write and,
 * should that fail (process killed, database gone), by the outbox drain later; delivery is idempotent (the audit
 * entry's id and the step's id are fixed in the event), so delivering twice is a no-op.
 */
import type { AuditEntry } from '../audit/audit.model.js';
import type { ProvisioningStepKind } from '../provisioning/provisioning.model.js';
import type { WebhookEvent } from '../webhooks/webhooks.model.js';

export interface ProvisioningStepEvent {
  kind: ProvisioningStepKind;
  organizationId: string;
  registrationId: string;
  revision: number;
}

export type OutboxEvent =
  | { id: string; kind: 'audit'; entry: AuditEntry }
  | { id: string; kind: 'provisioning'; step: ProvisioningStepEvent }
  /** A webhook event (its id is the event's): delivered to the webhooks' inbox, from where it is fanned out. */
  | { id: string; kind: 'webhook'; event: WebhookEvent };

/**
 * Delivers events right after the write that carried them; resolves with the ids it delivered, in order, up to
 * the first failure (never rejects: what is not delivered stays in the outbox for the drain).
 */
export type OutboxDelivery = (events: readonly OutboxEvent[]) => Promise<string[]>;

/** What a record with an outbox stores beside its own fields. */
export interface OutboxFields {
  /** Effects written with the record and not yet delivered; absent when there are none. */
  outbox?: OutboxEvent[];
  /** Since when the outbox is non-empty (what the drain queries and indexes); absent with it. */
  outboxAt?: Date;
}

/** The repository side of an outbox: find records with undelivered events, and remove delivered ones. */
export interface OutboxStore<T extends OutboxFields> {
  /** Records whose outbox is non-empty since `before` or earlier, oldest first (tombstones included). */
  pendingOutbox(query: { before: Date; limit: number }): Promise<T[]>;
  /**
   * Removes the events with these ids from the record's outbox without touching its revision or `updatedAt`;
   * a removed record (tombstone) whose outbox is now empty is deleted for good.
   */
  clearOutbox(organizationId: string, id: string, eventIds: readonly string[]): Promise<void>;
  /** How many records hold undelivered events, and since when the oldest does (the outbox metrics). */
  outboxBacklog(): Promise<{ count: number; oldest?: Date }>;
}

/** The backlog of records with an outbox, from their `outboxAt` (the embedded stores). */
export function backlogOf(records: Iterable<OutboxFields>): { count: number; oldest?: Date } {
  let count = 0;
  let oldest: Date | undefined;
  for (const record of records) {
    if (!record.outboxAt || !record.outbox?.length) continue;
    count += 1;
    if (!oldest || record.outboxAt < oldest) oldest = record.outboxAt;
  }
  return oldest ? { count, oldest } : { count };
}

/** The record without the delivered events (and without the outbox fields once it is empty). */
export function withoutDelivered<T extends OutboxFields>(record: T, delivered: readonly string[]): T {
  const outbox = remainingEvents(record.outbox, delivered);
  const next: T = { ...record, outbox };
  if (outbox.length === 0) {
    delete next.outbox;
    delete next.outboxAt;
  }
  return next;
}

/** Events left after delivering `delivered` (memory stores and the mongo read-modify-write under the record lock). */
export function remainingEvents(
  outbox: readonly OutboxEvent[] | undefined,
  delivered: readonly string[],
): OutboxEvent[] {
  const done = new Set(delivered);
  return (outbox ?? []).filter((event) => !done.has(event.id));
}
