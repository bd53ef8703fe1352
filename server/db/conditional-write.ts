/**
 * The result of a conditional write (docs/architecture.md §R.7): one atomic update filtered on organization, allowed
 * statuses and revision. A miss says why, so the service can answer 404, 409 or 412 without a read-then-write race.
 */

export type WriteMiss = 'not_found' | 'stale_revision' | 'invalid_status' | 'guard_failed';

export type WriteOutcome<T> = { ok: true; record: T } | { ok: false; reason: WriteMiss; current?: T };

/** Filter of a conditional write; absent members are not checked. */
export interface ConditionalFilter<S extends string> {
  organizationId: string;
  id: string;
  statusIn?: readonly S[];
  /** Strong `If-Match` tags as revisions; an empty list never matches (RFC 9110 §13.1.1). */
  revisionIn?: readonly number[];
}

/** Tells a miss apart in the order a client can act on: gone → stale copy → wrong status → guard. */
export function classifyMiss<T extends { status: string; revision: number }>(
  current: T | undefined,
  filter: ConditionalFilter<string>,
  guardHolds: (record: T) => boolean = () => true,
): WriteMiss | undefined {
  if (!current) return 'not_found';
  if (filter.revisionIn && !filter.revisionIn.includes(current.revision)) return 'stale_revision';
  if (filter.statusIn && !filter.statusIn.includes(current.status)) return 'invalid_status';
  if (!guardHolds(current)) return 'guard_failed';
  return undefined;
}
