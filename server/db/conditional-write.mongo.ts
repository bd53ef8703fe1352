/**
 * Conditional writes on MongoDB (research §4.3): the write is ONE findOneAndUpdate/findOneAndDelete whose filter
 * carries organization, allowed statuses and revisions; only when it misses is the record read, to tell the caller
 * why (404 / 412 / 409) with the same classification as the embedded store. No read-then-write.
 */
import mongoose from 'mongoose';
import { classifyMiss, type ConditionalFilter, type WriteOutcome } from './conditional-write.js';

/** The filter of a conditional write; `_id` is the record id. Operators are trusted, values are sanitized. */
export function conditionalFilter(filter: ConditionalFilter<string>): Record<string, unknown> {
  const query: Record<string, unknown> = { _id: filter.id, organizationId: filter.organizationId };
  if (filter.statusIn) query.status = mongoose.trusted({ $in: [...filter.statusIn] });
  if (filter.revisionIn) query.revision = mongoose.trusted({ $in: [...filter.revisionIn] });
  return query;
}

/** Changes → update document: values are `$set`, `null` is `$unset`; the revision goes up by one. */
export function revisionUpdate(changes: Record<string, unknown>, now: Date): Record<string, unknown> {
  const $set: Record<string, unknown> = { updatedAt: now };
  const $unset: Record<string, ''> = {};
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    if (value === null) $unset[key] = '';
    else $set[key] = value;
  }
  const update: Record<string, unknown> = { $set, $inc: { revision: 1 } };
  if (Object.keys($unset).length > 0) update.$unset = $unset;
  return update;
}

const RACE_RETRIES = 3;

export async function conditionalWrite<T extends { status: string; revision: number }>(
  filter: ConditionalFilter<string>,
  attempt: () => Promise<T | null>,
  readCurrent: () => Promise<T | null>,
  guardHolds: (record: T) => boolean = () => true,
): Promise<WriteOutcome<T>> {
  let current: T | undefined;
  for (let i = 0; i < RACE_RETRIES; i += 1) {
    const record = await attempt();
    if (record) return { ok: true, record };
    current = (await readCurrent()) ?? undefined;
    const miss = classifyMiss(current, filter, guardHolds);
    if (miss) return { ok: false, reason: miss, current };
    // Another writer changed the record between our write and our read so that it now matches: write again.
  }
  return { ok: false, reason: 'guard_failed', current };
}
