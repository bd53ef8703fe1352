/**
 * A webhook's delivery log: its deliveries, oldest first, as both stores keep them (the embedded one in memory,
 * MongoDB as one document per webhook, read and written by `_id` under the webhook's lock). Pure functions, so the
 * two stores cannot drift: adding deliveries (idempotent by id), claiming the due ones with a lease, recording an
 * attempt, redelivering, and the log's size bound — pending deliveries up to MAX_PENDING (past it, the oldest are
 * failed, so a receiver down for a day cannot grow its log past what one document holds), finished ones up to
 * LOG_LIMIT, the oldest dropped first.
 */
import { copyPlain } from '../../../lib/copy-plain.js';
import { compareKeys } from '../../db/keyset-page.js';
import type { Delivery, DeliveryAttempt, DeliveryStatus } from './webhooks.model.js';

/** Finished deliveries a log keeps (the deliveries list shows them; redelivery works on them). */
const LOG_LIMIT = 100;
/** Pending deliveries a log keeps (each holds its body, about 1 KiB): past it the oldest fail. */
const MAX_PENDING = 1000;

export type DeliveryLog = Delivery[];

/** The log with `added` appended, those already there (the same id) left as they are. */
export function withDeliveries(log: DeliveryLog, added: readonly Delivery[]): DeliveryLog {
  const known = new Set(log.map((d) => d.id));
  const fresh = added.filter((d) => !known.has(d.id)).map(copyPlain);
  const all = [...log, ...fresh].sort(compareKeys);
  let excess = all.filter((d) => d.status === 'pending').length - MAX_PENDING;
  if (excess <= 0 || fresh.length === 0) return bounded(all);
  const at = fresh[fresh.length - 1].createdAt;
  return bounded(
    all.map((delivery) => {
      if (excess <= 0 || delivery.status !== 'pending') return delivery;
      excess -= 1;
      const { leaseUntil: _lease, nextAttemptAt: _next, ...rest } = delivery;
      const dropped = { at, durationMs: 0, error: `dropped: more than ${MAX_PENDING} deliveries were pending` };
      return { ...rest, status: 'failed' as const, attempts: [...delivery.attempts, dropped] };
    }),
  );
}

/** Whether a pending delivery may be attempted at `now` (its time has come and no live lease holds it). */
function isDue(delivery: Delivery, now: Date): boolean {
  if (delivery.status !== 'pending') return false;
  if (delivery.leaseUntil && delivery.leaseUntil > now) return false;
  return (delivery.nextAttemptAt ?? delivery.createdAt) <= now;
}

/** Leases up to `limit` due deliveries until `leaseUntil`: the log after, and copies of what was claimed. */
export function claimDue(
  log: DeliveryLog,
  now: Date,
  leaseUntil: Date,
  limit: number,
): { log: DeliveryLog; claimed: Delivery[] } {
  const claimed: Delivery[] = [];
  const next = log.map((delivery) => {
    if (claimed.length >= limit || !isDue(delivery, now)) return delivery;
    const leased = { ...delivery, leaseUntil };
    claimed.push(copyPlain(leased));
    return leased;
  });
  return { log: next, claimed };
}

/** The log after an attempt: recorded, the lease released, the status and next time as decided. */
export function withAttempt(
  log: DeliveryLog,
  id: string,
  attempt: DeliveryAttempt,
  outcome: { status: DeliveryStatus; nextAttemptAt?: Date },
): DeliveryLog {
  return bounded(
    log.map((delivery) => {
      if (delivery.id !== id) return delivery;
      const { leaseUntil: _lease, nextAttemptAt: _next, ...rest } = delivery;
      return {
        ...rest,
        attempts: [...delivery.attempts, copyPlain(attempt)],
        status: outcome.status,
        ...(outcome.nextAttemptAt && { nextAttemptAt: outcome.nextAttemptAt }),
      };
    }),
  );
}

/** The log with the delivery pending again now (same id, same `webhook-id` and body), and that delivery. */
export function redeliver(log: DeliveryLog, id: string, now: Date): { log: DeliveryLog; delivery?: Delivery } {
  let delivery: Delivery | undefined;
  const next = log.map((d) => {
    if (d.id !== id) return d;
    const { leaseUntil: _lease, ...rest } = d;
    delivery = { ...rest, status: 'pending', nextAttemptAt: now, since: now };
    return delivery;
  });
  return { log: next, delivery: delivery && copyPlain(delivery) };
}

/** When the log next has work: the earliest time a pending delivery is due (or its lease ends); none: undefined. */
export function nextDueAt(log: DeliveryLog): Date | undefined {
  let earliest: Date | undefined;
  for (const delivery of log) {
    if (delivery.status !== 'pending') continue;
    const at = delivery.leaseUntil ?? delivery.nextAttemptAt ?? delivery.createdAt;
    if (!earliest || at < earliest) earliest = at;
  }
  return earliest;
}

/** Every pending delivery, and the newest finished ones up to LOG_LIMIT, in (createdAt, id) order. */
function bounded(log: DeliveryLog): DeliveryLog {
  const sorted = [...log].sort(compareKeys);
  let finished = sorted.filter((d) => d.status !== 'pending').length;
  if (finished <= LOG_LIMIT) return sorted;
  return sorted.filter((d) => d.status === 'pending' || finished-- <= LOG_LIMIT);
}
