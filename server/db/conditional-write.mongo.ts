/**
 * Conditional writes on MongoDB (docs/architecture.md §R.7), made while the record's write lock is held (write-locks.ts): the
 * record is read by `{ _id }`, the conditions (organization, allowed statuses, revisions, a guard) are checked
 * here with the embedded store's classification, and the write goes by `{ _id }` too. The lock makes the read and
 * the write one step for every writer of the record. The filters stay `{ _id }` alone for FerretDB 1.24 (SQLite),
 * which uses no index at all: it evaluates exactly `{ _id }` inside SQLite, about ten times cheaper per document
 * than any other filter, which it decodes and tests document by document (docs/operations.md has the figures).
 * MongoDB answers both from the `_id` index.
 */
import type { WriteLocks } from './write-locks.js';
import { classifyMiss, type ConditionalFilter, type WriteOutcome } from './conditional-write.js';

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

export interface LockedWrite<T> {
  locks: WriteLocks;
  /** The lock's key: every writer of the record takes the same one. */
  lockKey: string;
  filter: ConditionalFilter<string>;
  /** The record as callers may write it (live, in the filter's organization), read by `{ _id }`; null if none. */
  read(): Promise<T | null>;
  /** What else must hold (the embedded store checks the same). */
  guard?: (record: T) => boolean;
  /** Writes by `{ _id }` once every condition held; the record after the write, or null if it vanished. */
  write(current: T): Promise<T | null>;
}

export async function lockedConditionalWrite<T extends { status: string; revision: number }>(
  operation: LockedWrite<T>,
): Promise<WriteOutcome<T>> {
  return operation.locks.withLock(operation.lockKey, async () => {
    const current = (await operation.read()) ?? undefined;
    const miss = classifyMiss(current, operation.filter, operation.guard);
    if (miss) return { ok: false, reason: miss, current };
    const record = await operation.write(current as T);
    return record ? { ok: true, record } : { ok: false, reason: 'not_found' };
  });
}
