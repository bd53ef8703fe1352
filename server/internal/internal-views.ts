/** What the internal surface shows of stored records: everything a reviewer needs, never a secret or its hash. */
import type { ChangeSet } from '../components/change-sets/change-sets.model.js';
import type { Registration } from '../components/registrations/registrations.model.js';

/** Storage bookkeeping, not part of the record: the outbox, the tombstone mark, the stored Idempotency-Key. */
const BOOKKEEPING = new Set(['outbox', 'outboxAt', 'removedAt', 'idempotencyKey']);

export function internalRegistrationView(
  registration: Registration,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const shown = ([key]: [string, unknown]) => !/secret|token/i.test(key) && !BOOKKEEPING.has(key);
  return Object.fromEntries(Object.entries({ ...registration, ...extra }).filter(shown));
}

export function changeSetRecordView(changeSet: ChangeSet): Record<string, unknown> {
  return Object.fromEntries(Object.entries(changeSet).filter(([key]) => !BOOKKEEPING.has(key)));
}
