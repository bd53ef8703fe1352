/** What the internal surface shows of stored records: everything a reviewer needs, never a secret or its hash. */
import type { ChangeSet } from '../components/change-sets/change-sets.model.js';
import type { Registration } from '../components/registrations/registrations.model.js';

/** Storage bookkeeping, not part of the record: the outbox, the tombstone mark, the stored Idempotency-Key. */
const BOOKKEEPING = new Set(['outbox', 'outboxAt', 'removedAt', 'idempotencyKey']);

export function internalRegistrationView(registration: Registration, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const view: Record<string, unknown> = { ...registration, ...extra };
  for (const key of Object.keys(view)) if (/secret|token/i.test(key) || BOOKKEEPING.has(key)) delete view[key];
  return view;
}

export function changeSetRecordView(changeSet: ChangeSet): Record<string, unknown> {
  const view: Record<string, unknown> = { ...changeSet };
  for (const key of BOOKKEEPING) delete view[key];
  return view;
}
